/* Escaped, printable text for XML, SVG and HTML (xmltext.h). */
#include <string.h>
#include "utils/xmltext.h"
#include "utils/printable.h"
#include "utils/banned.h"

void xml_text(FILE *fp, const char *s, size_t max_chars)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t chars = 0;

	while (*p) {
		size_t n = printable_char(p);

		if (max_chars && chars == max_chars) {
			fputs("\xe2\x80\xa6", fp);	/* … */
			return;
		}
		chars++;
		if (n == 0) {
			fprintf(fp, "\\x%02x", *p++);
			continue;
		}
		switch (*p) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		case '\'': fputs("&#39;", fp); break;
		/* in an attribute a parser turns a raw tab into a space */
		case '\t': fputs("&#9;", fp); break;
		default: fwrite(p, 1, n, fp);
		}
		p += n;
	}
}
