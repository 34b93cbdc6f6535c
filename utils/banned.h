#ifndef EGPROF_BANNED_H
#define EGPROF_BANNED_H
/*
 * Unbounded string functions are compile errors in our code (git's banned.h):
 * use snprintf, memcpy with a checked length, or strbuf-like helpers instead.
 * Include this after the system headers.
 */
#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef strncat
#define strncat(x, y, n) BANNED(strncat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef gets
#define gets(x) BANNED(gets)

#endif
