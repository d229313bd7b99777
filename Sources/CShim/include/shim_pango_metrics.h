#ifndef BOOKRENDER_SHIM_PANGO_METRICS_H
#define BOOKRENDER_SHIM_PANGO_METRICS_H
#include <pango/pango.h>

/* Pango's metrics getters (pango_fc_font_get_metrics in pangofc-font.c and
   _pango_cairo_font_get_metrics in pangocairo-font.c) guard against recursion with a process-wide
   `static int in_get_metrics`. While one thread computes the metrics of a font, another thread
   computing them for a font of its own font map sees the flag set, skips the derived metrics and
   caches an approximate character width of 0. Line breaking takes three of those widths as its
   margin for trusting estimated widths, so that thread's text breaks differently from the same
   text set alone: layouts on two threads did not match.

   The flag came with "Add line height to font metrics" (Pango 1.44.1) and is in every release
   since, up to 1.58.2, the newest checked. For a Pango in that range this routes the get_metrics
   of `font`'s class (and so of every font of that class in the process) through one recursive
   lock; after the first call for a font and language the getter is a cache lookup. Done once per
   process; later calls, and calls under a Pango outside the range, do nothing.

   Computing each font's metrics ahead under a lock of our own would leave Pango's class alone,
   but the fonts and languages a layout asks for (fallback fonts, the language of each script run)
   are only known after Pango itemizes the text: every paragraph would be itemized twice. */
void shim_serialize_pango_font_metrics(PangoFont *font);

#endif
