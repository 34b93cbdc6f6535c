/*
 * sigsem.c - what signal(), siginterrupt(), sigaction() and setitimer()
 * return and do, printed: the same with or without the runtime (which
 * interposes signal, sigaction and setitimer).
 *
 *   - signal() is BSD's in glibc: SA_RESTART unless siginterrupt(sig, 1)
 *     was called, so a read() interrupted by SIGALRM fails with EINTR
 *     after siginterrupt and is restarted without it;
 *   - signal(sig, SIG_ERR), signal(0, ...), signal(SIGKILL, ...) and
 *     signal(65, ...) fail with EINVAL;
 *   - the flags and mask sigaction() reports for a handler signal() set;
 *   - setitimer() with a bad `which` fails with EINVAL, and ITIMER_REAL's
 *     old value comes back.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

/* siginterrupt() is what this program checks */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static volatile sig_atomic_t alarms;

__attribute__((noinline)) static void count_alarm(void)
{
	alarms++;
}

static void on_alarm(int sig)
{
	(void)sig;
	count_alarm();
}

/* A read of an empty pipe interrupted by SIGALRM after 50 ms.  With
 * SA_RESTART the read is restarted: a second timer 100 ms later closes the
 * question by writing into the pipe from the handler. */
static int pipe_w = -1;

static void on_alarm_write(int sig)
{
	(void)sig;
	count_alarm();
	if (alarms >= 2 && write(pipe_w, "x", 1) != 1)
		_exit(3);
}

__attribute__((noinline)) static void timed_read(const char *what)
{
	struct itimerval it = { { 0, 50000 }, { 0, 50000 } };
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	int fd[2];
	char c;
	ssize_t n;

	if (pipe(fd) != 0)
		_exit(2);
	pipe_w = fd[1];
	alarms = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	n = read(fd[0], &c, 1);
	int e = errno;
	setitimer(ITIMER_REAL, &off, NULL);
	printf("%s: read %zd (%s) after %d alarm(s)\n", what, n,
	       n < 0 ? strerror(e) : "data", alarms >= 2 ? 2 : (int)alarms);
	close(fd[0]);
	close(fd[1]);
}

static void show_flags(int sig, const char *what)
{
	struct sigaction sa;

	if (sigaction(sig, NULL, &sa) != 0) {
		printf("%s: sigaction failed: %s\n", what, strerror(errno));
		return;
	}
	printf("%s: restart %d nodefer %d resethand %d siginfo %d self-masked %d\n", what,
	       !!(sa.sa_flags & SA_RESTART), !!(sa.sa_flags & SA_NODEFER),
	       !!(sa.sa_flags & SA_RESETHAND), !!(sa.sa_flags & SA_SIGINFO),
	       sigismember(&sa.sa_mask, sig));
}

static void try_signal(int sig, void (*h)(int), const char *what)
{
	void (*r)(int);

	errno = 0;
	r = signal(sig, h);
	printf("signal(%s): %s, errno %s\n", what, r == SIG_ERR ? "SIG_ERR" : "ok",
	       errno ? strerror(errno) : "0");
}

int main(void)
{
	struct itimerval it = { { 0, 0 }, { 7, 0 } }, old;
	int r;

	signal(SIGALRM, on_alarm_write);
	show_flags(SIGALRM, "signal");
	timed_read("signal (restarted)");

	siginterrupt(SIGALRM, 1);
	signal(SIGALRM, on_alarm_write);
	show_flags(SIGALRM, "signal after siginterrupt");
	timed_read("signal after siginterrupt (interrupted)");

	siginterrupt(SIGALRM, 0);
	signal(SIGALRM, on_alarm);
	show_flags(SIGALRM, "signal after siginterrupt 0");

	try_signal(SIGUSR1, SIG_ERR, "SIGUSR1, SIG_ERR");
	try_signal(0, SIG_IGN, "0");
	try_signal(SIGKILL, SIG_IGN, "SIGKILL");
	try_signal(65, SIG_IGN, "65");
	try_signal(SIGUSR2, SIG_IGN, "SIGUSR2");
	printf("signal(SIGUSR2) again returns the old one: %d\n",
	       signal(SIGUSR2, SIG_DFL) == SIG_IGN);

	errno = 0;
	r = sigaction(SIGSTOP, &(struct sigaction){ .sa_handler = SIG_IGN }, NULL);
	printf("sigaction(SIGSTOP): %d errno %s\n", r, strerror(errno));
	errno = 0;
	r = setitimer(99, &it, NULL);
	printf("setitimer(99): %d errno %s\n", r, strerror(errno));
	setitimer(ITIMER_REAL, &it, NULL);
	it.it_value.tv_sec = 0;
	printf("setitimer(ITIMER_REAL) old value set: %d\n",
	       setitimer(ITIMER_REAL, &it, &old) == 0 && old.it_value.tv_sec >= 6);
	return 0;
}
