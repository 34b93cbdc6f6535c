/*
 * fork.c - each process writes its own sidecar:
 *
 *   main ─┬─ before            in both (the child inherits it, as gmon.out does)
 *         ├─ child_work x3     child only
 *         └─ parent_work x5    parent only
 */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

volatile int sink;

__attribute__((noinline)) void before(void) { sink++; }
__attribute__((noinline)) void child_work(void) { sink++; }
__attribute__((noinline)) void parent_work(void) { sink++; }

int main(void)
{
	pid_t pid;

	before();
	pid = fork();
	if (pid == 0) {
		for (int i = 0; i < 3; i++)
			child_work();
		exit(0);
	}
	waitpid(pid, NULL, 0);
	for (int i = 0; i < 5; i++)
		parent_work();
	return 0;
}
