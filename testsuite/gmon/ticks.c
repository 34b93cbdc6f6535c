/* Two threads, each calling tick() 2,000,000 times: 4,000,000 arcs. */
#include <pthread.h>
#include <stdio.h>

static volatile unsigned long sink;

void tick(void) { sink++; }

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2000000; i++)
		tick();
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("done\n");
	return 0;
}
