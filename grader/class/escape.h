/* escape.h - writing untrusted text into other languages.
 *
 * Messages, compiler output and student names end up in XML, CSV,
 * Markdown and shell scripts; each writer here makes any byte string safe
 * in one of them, so no report breaks (or runs) on what a student wrote.
 */
#ifndef CLASS_ESCAPE_H
#define CLASS_ESCAPE_H

#include <stdio.h>

#include "text.h"

/* XML text or attribute value: & < > " ' escaped, newlines kept as &#10;
 * in attributes, other control characters (not allowed in XML 1.0) as '?'. */
void esc_xml(FILE *f, const char *s, int attribute);
/* One CSV field (RFC 4180), quoted when needed; text that a spreadsheet
 * would run as a formula (= + - @ first) gets a leading apostrophe. */
void esc_csv(FILE *f, const char *s);
/* Markdown inline text: punctuation that means something is backslashed. */
void esc_md(FILE *f, const char *s);
/* A fenced code block whose fence is longer than any backtick run in s. */
void esc_md_block(FILE *f, const char *s);
/* A POSIX shell word: 'it'\''s'. */
void esc_shell(strbuf *b, const char *s);

#endif
