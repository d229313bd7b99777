#ifndef BOOKRENDER_SHIM_GOBJECT_H
#define BOOKRENDER_SHIM_GOBJECT_H
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <pango/pangofc-font.h>
#include <fontconfig/fontconfig.h>

/* GObject's checked casts are function-like macros, which Swift does not import. */
PangoFcFontMap *shim_fc_font_map(PangoFontMap *map);
/* The file a loaded Pango font comes from (NULL when it is not a fontconfig font); caller frees with g_free. */
char *shim_font_file(PangoFont *font);
/* The family name fontconfig reports for a loaded font (caller frees with g_free). */
char *shim_font_family(PangoFont *font);
void shim_object_unref(void *object);
/* The cairo scaled font Pango draws a font with (owned by the font; NULL when it has none). */
cairo_scaled_font_t *shim_scaled_font(PangoFont *font);
/* A paragraph's base direction from its first strong character (NEUTRAL when it has none), as
   Pango 1.50's own layout finds it for auto-direction paragraphs: pango_find_base_dir, which its
   header marks deprecated, so called from here with that warning silenced. */
PangoDirection shim_paragraph_direction(const char *text, int length);
#endif
