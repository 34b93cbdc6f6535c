#ifndef EGPROF_XMLTEXT_H
#define EGPROF_XMLTEXT_H
/*
 * Text inside XML, SVG and HTML elements and attribute values: the name
 * made printable (utils/printable.h: other bytes as \xNN) and & < > " '
 * and tab written as references (a tab in an attribute would be read back
 * as a space), so any symbol name is a valid, searchable string.
 *
 *   fputs("<text>", fp); xml_text(fp, name, 0); fputs("</text>", fp);
 *
 * max_chars > 0 cuts the text after that many characters (whole UTF-8
 * characters, an ellipsis added); 0 writes all of it.
 */
#include <stdio.h>

void xml_text(FILE *fp, const char *s, size_t max_chars);

#endif
