// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oomwatch: XML text for the SVG pictures; xml.h says what comes out.
 */
#include "xml.h"

/*
 * Length of the well-formed UTF-8 character XML allows at s, within left
 * bytes, or 0.
 */
static size_t utf8_len(const unsigned char *s, size_t left)
{
	size_t n;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	n = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (n > left)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* overlong forms, surrogates, past U+10FFFF, U+FFFE and U+FFFF */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90) ||
	    (s[0] == 0xef && s[1] == 0xbf && s[2] >= 0xbe))
		return 0;
	return n;
}

/* One byte that is not part of a UTF-8 character. */
static void xml_byte(FILE *f, unsigned char c)
{
	switch (c) {
	case '<':
		fputs("&lt;", f);
		break;
	case '>':
		fputs("&gt;", f);
		break;
	case '&':
		fputs("&amp;", f);
		break;
	case '"':
		fputs("&quot;", f);
		break;
	default:
		if (c < 0x20 || c == 0x7f)
			fputc('?', f);
		else if (c >= 0x80)
			fprintf(f, "&#x%x;", c);
		else
			fputc(c, f);
	}
}

void xml_put(FILE *f, const char *str, size_t max)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	while (i < max && s[i]) {
		size_t n = s[i] >= 0x80 ? utf8_len(s + i, max - i) : 0;

		if (n) {
			fwrite(s + i, 1, n, f);
			i += n;
		} else {
			xml_byte(f, s[i++]);
		}
	}
}
