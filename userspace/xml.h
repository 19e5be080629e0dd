/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * oomwatch: text inside the SVG pictures of oomwatch (svg.c) and
 * ow-report (report.c), in one place so that a task's name reads the
 * same in both.
 */
#ifndef OOMWATCH_XML_H
#define OOMWATCH_XML_H

#include <stddef.h>
#include <stdio.h>

/*
 * Write at most max bytes of s, or up to its NUL, as XML text or an
 * attribute value: markup escaped; well-formed UTF-8 as it is; any other
 * byte above 0x7f as the Latin-1 character of that value (a task's name
 * is bytes, not text: none is lost); control characters, which XML 1.0
 * forbids, as '?'.
 */
void xml_put(FILE *f, const char *s, size_t max);

/* The same for a string that ends at its NUL. */
static inline void xml_puts(FILE *f, const char *s)
{
	xml_put(f, s, (size_t)-1);
}

#endif /* OOMWATCH_XML_H */
