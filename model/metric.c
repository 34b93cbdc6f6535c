/*
 * metric.c - which per-node value the call-path outputs show; see metric.h.
 */
#include "model/metric.h"

#include <stdio.h>
#include <string.h>

#include "format/sidecar.h"
#include "utils/error.h"
#include "utils/banned.h"

int callpath_metric_is_time(const char *name)
{
	return !name || !*name || !strcmp(name, "time") ||
	       !strcmp(name, SIDECAR_TIME_METRIC_NAME);
}

int callpath_metric_is_list(const char *name)
{
	return name && strchr(name, ',') != NULL;
}

int callpath_metric_is_derived(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	return name && (!strcmp(name, "IPC") || !strcmp(name, "CI") ||
			(n > 3 && !strcmp(name + n - 3, "/KI")));
}

int callpath_metric_find(const struct sidecar *sc, const char *name,
			 const char *source, int *k)
{
	char have[1024];
	size_t len;

	*k = CALLPATH_METRIC_TIME;
	if (callpath_metric_is_time(name))
		return 0;
	if (callpath_metric_is_list(name) || callpath_metric_is_derived(name))
		return error("--metric '%s': %s is shown by --callpath's text report "
			     "only; --folded, --pprof, --html, --format and --diff take "
			     "one event or time (doc/counters.md)", name,
			     strchr(name, ',') ? "a list of metrics" : "a derived metric");
	for (uint32_t i = 0; i < sc->nr_extra; i++)
		if (!strcmp(sc->extra_metrics[i].name, name)) {
			*k = (int)i;
			return 0;
		}
	len = (size_t)snprintf(have, sizeof(have), "time");
	for (uint32_t i = 0; i < sc->nr_extra && len < sizeof(have); i++)
		len += (size_t)snprintf(have + len, sizeof(have) - len, ", %s",
					sc->extra_metrics[i].name);
	return error("%s: no metric '%s' (it has %s); record events with "
		     "CALLPATH_EVENTS=%s (doc/counters.md)", source, name, have, name);
}

static uint64_t period_of(const struct sidecar *sc, int k)
{
	uint64_t p = sc->extra_metrics[k].period;

	return p ? p : 1;
}

uint64_t callpath_metric_samples(const struct sidecar *sc, int k, uint32_t i)
{
	if (k == CALLPATH_METRIC_TIME)
		return sc->nodes[i].self_samples;
	/* a sum of runs with other periods rounds to the nearest overflow */
	return (sc->extra_values[(size_t)i * sc->nr_extra + (uint32_t)k] +
		period_of(sc, k) / 2) / period_of(sc, k);
}

uint64_t callpath_metric_unplaced(const struct sidecar *sc, int k)
{
	if (k == CALLPATH_METRIC_TIME)
		return sc->unplaced_samples;
	return (sc->extra_metrics[k].unplaced + period_of(sc, k) / 2) / period_of(sc, k);
}

double callpath_metric_describe(struct callpath_metric_desc *d,
				const struct sidecar *sc, int k, double gmon_hz)
{
	memset(d, 0, sizeof(*d));
	if (k == CALLPATH_METRIC_TIME)
		return gmon_hz;
	snprintf(d->name, sizeof(d->name), "%s", sc->extra_metrics[k].name);
	snprintf(d->unit, sizeof(d->unit), "%s", sc->extra_metrics[k].unit);
	d->period = period_of(sc, k);
	d->estimated = d->period > 1;
	d->user_only = !!(sc->extra_metrics[k].flags & SIDECAR_METRIC_USER_ONLY);
	return 1.0 / (double)d->period;
}
