/*
 * spawn.c - processes made every way: fork (the child calls instrumented
 * code and exits with a status), fork + exec, vfork + exec, posix_spawn,
 * and system().  Prints what each child returned.
 *
 *   spawn            the parent
 *   spawn child N    a child run by exec: calls work(), exits with N
 */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
static volatile unsigned long sink;

__attribute__((noinline)) static void work(int n)
{
	for (int i = 0; i < n; i++)
		sink += (unsigned long)i;
}

static int status_of(pid_t pid)
{
	int st;

	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(int argc, char **argv)
{
	char self[4096];
	pid_t pid;
	ssize_t n;

	if (argc > 2 && strcmp(argv[1], "child") == 0) {
		work(10);
		return atoi(argv[2]);
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 2;
	self[n] = '\0';
	work(5);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		work(3);
		exit(3);
	}
	printf("fork: %d\n", status_of(pid));
	pid = fork();
	if (pid == 0) {
		execl(self, self, "child", "4", (char *)NULL);
		_exit(127);
	}
	printf("fork+exec: %d\n", status_of(pid));
	pid = vfork();
	if (pid == 0) {
		execl(self, self, "child", "5", (char *)NULL);
		_exit(127);
	}
	printf("vfork+exec: %d\n", status_of(pid));
	{
		char *args[] = { self, (char *)"child", (char *)"6", NULL };

		if (posix_spawn(&pid, self, NULL, NULL, args, environ) != 0)
			pid = -1;
		printf("posix_spawn: %d\n", status_of(pid));
	}
	fflush(stdout);
	printf("system: %d\n", WEXITSTATUS(system("exit 7")));
	work(2);
	return 0;
}
