/* fork: the child inherits the counts so far and writes its own file. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned sink;
static void before(void) { sink++; }
static void in_parent(void) { sink += 2; }
static void in_child(void) { sink += 3; }

int main(void)
{
	pid_t pid;
	int status = 0;

	for (int i = 0; i < 7; i++)
		before();
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		for (int i = 0; i < 5; i++)
			in_child();
		return 0;
	}
	for (int i = 0; i < 3; i++)
		in_parent();
	waitpid(pid, &status, 0);
	printf("%u %d\n", sink, WEXITSTATUS(status));
	return 0;
}
