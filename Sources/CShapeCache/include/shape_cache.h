#ifndef BOOKRENDER_SHAPE_CACHE_H
#define BOOKRENDER_SHAPE_CACHE_H

/* The shaping cache of the bookrender program (see shape_cache_internal.h). It replaces HarfBuzz's
 * hb_shape and hb_buffer_add_utf8 for the whole process, so it belongs to the executable alone:
 * no library or test target may link this module.
 *
 * shape_cache_start() decides, once and before anything else uses Pango, whether the cache is on:
 * - BOOKRENDER_SHAPE_CACHE=0 switches it off; =verify also shapes every served call anew and counts
 *   the differences; unset, empty or 1 leaves the decision to the checks;
 * - it stays off unless the running Pango and HarfBuzz are exactly the versions the cache was
 *   verified against, and a tiny Pango shaping call is seen to land in the program's hb_shape and
 *   hb_buffer_add_utf8.
 * Off, the two functions hand every call straight to HarfBuzz. With BOOKRENDER_SHAPE_CACHE_STATS=1
 * the program prints one line on stderr as it exits:
 *   shape cache: state=on|verifying|off shaped=N shapedChars=N served=N servedChars=N wordItems=N wordChars=N mismatches=N [why="..."]
 * (`why` only when off). */
void shape_cache_start(void);

/* 1 when the cache is on and this thread's last shaping of the item [item_start, item_end) of
 * `text` (text_length bytes) in `font` (a PangoFont's own HarfBuzz font) is kept, left to right,
 * and the piece [start, end) of it would be served from it cut at both ends: HarfBuzz says its
 * glyphs there are what shaping the piece alone gives. Then the piece's glyphs are the item's
 * between the two cuts, and a caller holding them may take them without shaping. 0 otherwise. */
int shape_cache_piece_is_cut(struct hb_font_t *font, const char *text, int text_length, unsigned item_start, unsigned item_end,
                             unsigned start, unsigned end);

#endif
