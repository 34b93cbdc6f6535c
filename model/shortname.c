/*
 * shortname.c - C++ names with their template arguments left out
 * (shortname.h): every level, as names.h's name_shorten with keep 0.
 */
#include "model/shortname.h"

#include "utils/names.h"
#include "utils/banned.h"

char *short_name(const char *name)
{
	return name_shorten(name, 0);
}
