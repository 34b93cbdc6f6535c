/*
 * sleeps.c - calls that sleep, and what they returned: nanosleep, poll
 * with a timeout, select with a timeout, usleep and sleep(1), each result
 * and errno printed, so that a run with the runtime (and its counters'
 * or timers' signals) can be compared with one without.  A signal that
 * reaches a sleeping thread ends these calls early with EINTR whatever
 * SA_RESTART says.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

static void said(const char *what, int r)
{
	printf("%s %d %s\n", what, r, r < 0 ? strerror(errno) : "");
}

__attribute__((noinline)) void nap(void)
{
	struct timespec ts = { 0, 2000000 };

	said("nanosleep", nanosleep(&ts, NULL));
}

__attribute__((noinline)) void wait_poll(void)
{
	said("poll", poll(NULL, 0, 2));
}

__attribute__((noinline)) void wait_select(void)
{
	struct timeval tv = { 0, 2000 };

	said("select", select(0, NULL, NULL, NULL, &tv));
}

int main(void)
{
	for (int i = 0; i < 20; i++) {
		nap();
		wait_poll();
		wait_select();
		said("usleep", usleep(1000));
	}
	said("sleep", (int)sleep(1));
	return 0;
}
