#include "shim_gobject.h"
#include <glib.h>

PangoFcFontMap *shim_fc_font_map(PangoFontMap *map) {
    if (!PANGO_IS_FC_FONT_MAP(map)) return NULL;
    return PANGO_FC_FONT_MAP(map);
}

static FcPattern *font_pattern(PangoFont *font) {
    if (font == NULL || !PANGO_IS_FC_FONT(font)) return NULL;
    return pango_fc_font_get_pattern(PANGO_FC_FONT(font));
}

char *shim_font_file(PangoFont *font) {
    FcPattern *pattern = font_pattern(font);
    FcChar8 *file = NULL;
    if (pattern == NULL || FcPatternGetString(pattern, FC_FILE, 0, &file) != FcResultMatch) return NULL;
    return g_strdup((const char *)file);
}

char *shim_font_family(PangoFont *font) {
    FcPattern *pattern = font_pattern(font);
    FcChar8 *family = NULL;
    if (pattern == NULL || FcPatternGetString(pattern, FC_FAMILY, 0, &family) != FcResultMatch) return NULL;
    return g_strdup((const char *)family);
}

void shim_object_unref(void *object) {
    if (object) g_object_unref(object);
}

cairo_scaled_font_t *shim_scaled_font(PangoFont *font) {
    if (font == NULL || !PANGO_IS_CAIRO_FONT(font)) return NULL;
    return pango_cairo_font_get_scaled_font(PANGO_CAIRO_FONT(font));
}

PangoDirection shim_paragraph_direction(const char *text, int length) {
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    PangoDirection direction = pango_find_base_dir(text, length);
    G_GNUC_END_IGNORE_DEPRECATIONS
    return direction;
}
