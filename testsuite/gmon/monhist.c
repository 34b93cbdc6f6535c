/*
 * moncontrol and the histogram: CPU time spent while profiling is off is
 * not sampled at all (profil stopped), time spent while it is on is.
 */
#include <stdio.h>
#include <time.h>

void moncontrol(int mode);

static volatile unsigned long sink;

static double cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void spin_off(double s)
{
	double end = cpu() + s;

	while (cpu() < end)
		for (int i = 0; i < 10000; i++)
			sink += (unsigned long)i;
}

static void spin_on(double s)
{
	double end = cpu() + s;

	while (cpu() < end)
		for (int i = 0; i < 10000; i++)
			sink += (unsigned long)i;
}

int main(void)
{
	moncontrol(0);
	spin_off(0.25);
	moncontrol(1);
	spin_on(0.15);
	printf("done\n");
	return 0;
}
