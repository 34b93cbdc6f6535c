#ifndef CALLPATH_SHORTNAME_H
#define CALLPATH_SHORTNAME_H
/*
 * shortname.h - C++ names with their template arguments left out, for
 * call paths a reader can follow (`--short-names`): a demangled name of a
 * templated library puts thousands of characters on one path line, where
 * pprof and perf show `std::vector<…>::push_back(int const&)`.
 *
 *   std::vector<int, std::allocator<int> >::push_back(int const&)
 *       -> std::vector<…>::push_back(int const&)
 *   void std::__sort<__gnu_cxx::__normal_iterator<int*, std::vector<int,
 *   std::allocator<int> > > >(__gnu_cxx::__normal_iterator<int*, ...>, ...)
 *       -> void std::__sort<…>(__gnu_cxx::__normal_iterator<…>, ...)
 *
 * Every balanced <...> becomes <…> (U+2026); parameters, clone suffixes,
 * namespaces and lambdas stay.  The operators whose names hold '<' or '>'
 * (operator<, operator<<, operator<=>, operator->, operator>>=, ...) are
 * kept as they are, and a template operator's arguments go
 * (`operator< <int>` -> `operator< <…>`).  A name whose brackets do not
 * balance (not a demangled C++ name) is returned as it is.
 *
 * Returns a malloc'd string, or NULL when out of memory.
 */
char *short_name(const char *name);

#endif
