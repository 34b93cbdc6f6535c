/*
 * resethand.c - a SIGTERM handler installed with SA_RESETHAND, the
 * process killed twice: the handler runs once (the kernel puts the
 * default action back as it delivers), the second SIGTERM ends the
 * process, status 143.  With the runtime the second one leaves the
 * profile, as the default action does.  Prints what sigaction() reports
 * before and after the first (the same with and without the runtime).
 *
 *   resethand [siginfo|nodefer]
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void work(void)
{
	for (unsigned long i = 0; i < 1000000; i++)
		sink += i;
}

static void on_term(int sig)
{
	static const char msg[] = "handler ran\n";

	(void)sig;
	(void)!write(1, msg, sizeof(msg) - 1);
}

static void on_term_info(int sig, siginfo_t *si, void *uc)
{
	static const char ok[] = "handler ran, siginfo from kill()\n";
	static const char bad[] = "handler ran, siginfo not kill()'s\n";

	(void)uc;
	if (sig == SIGTERM && si && si->si_signo == SIGTERM && si->si_code == SI_USER &&
	    si->si_pid == getpid())
		(void)!write(1, ok, sizeof(ok) - 1);
	else
		(void)!write(1, bad, sizeof(bad) - 1);
}

static void show(const char *when)
{
	struct sigaction sa;

	memset(&sa, 0xa5, sizeof(sa));
	if (sigaction(SIGTERM, NULL, &sa) != 0) {
		printf("%s: sigaction failed\n", when);
		return;
	}
	printf("%s: %s flags %#x mask %#lx\n", when,
	       sa.sa_handler == SIG_DFL ? "SIG_DFL" :
	       (void *)sa.sa_handler == (void *)on_term ? "on_term" :
	       (void *)sa.sa_sigaction == (void *)on_term_info ? "on_term_info" : "other",
	       (unsigned)sa.sa_flags, *(unsigned long *)&sa.sa_mask);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR1);
	sa.sa_flags = SA_RESETHAND;
	if (strcmp(mode, "siginfo") == 0) {
		sa.sa_sigaction = on_term_info;
		sa.sa_flags |= SA_SIGINFO;
	} else {
		sa.sa_handler = on_term;
		if (strcmp(mode, "nodefer") == 0)
			sa.sa_flags |= SA_NODEFER;
	}
	if (sigaction(SIGTERM, &sa, NULL) != 0)
		return 1;
	show("installed");
	work();
	kill(getpid(), SIGTERM);
	show("after the first SIGTERM");
	work();
	kill(getpid(), SIGTERM);
	printf("not reached\n");
	return 0;
}
