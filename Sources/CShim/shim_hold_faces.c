#include "shim_hold_faces.h"
#include <cairo-ft.h>
#include <glib.h>
#include <pango/pangofc-font.h>

static GMutex hold_lock;
static GHashTable *held; /* "index\nfile" -> a cairo_scaled_font_t whose face stays locked */

/* Holds the face of `file` at `index` unless it is held already; with `hold_lock` held. */
static void hold_locked(const FcChar8 *file, int index) {
    if (held == NULL) held = g_hash_table_new(g_str_hash, g_str_equal);
    gchar *key = g_strdup_printf("%d\n%s", index, (const char *)file);
    if (g_hash_table_contains(held, key)) {
        g_free(key);
        return;
    }
    FcPattern *pattern = FcPatternCreate();
    FcPatternAddString(pattern, FC_FILE, file);
    FcPatternAddInteger(pattern, FC_INDEX, index);
    cairo_font_face_t *face = cairo_ft_font_face_create_for_pattern(pattern);
    FcPatternDestroy(pattern);
    cairo_matrix_t size, identity;
    cairo_matrix_init_scale(&size, 12, 12);
    cairo_matrix_init_identity(&identity);
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_scaled_font_t *scaled = cairo_scaled_font_create(face, &size, &identity, options);
    cairo_font_options_destroy(options);
    cairo_font_face_destroy(face);
    if (cairo_scaled_font_status(scaled) == CAIRO_STATUS_SUCCESS && cairo_ft_scaled_font_lock_face(scaled) != NULL) {
        /* Held for the life of the process: the lock, the scaled font and the key. */
        g_hash_table_insert(held, key, scaled);
    } else {
        cairo_scaled_font_destroy(scaled);
        g_free(key);
    }
}

int shim_hold_faces(FcConfig *config) {
    g_mutex_lock(&hold_lock);
    FcFontSet *set = config ? FcConfigGetFonts(config, FcSetApplication) : NULL;
    for (int i = 0; set && i < set->nfont; i++) {
        FcChar8 *file = NULL;
        int index = 0;
        if (FcPatternGetString(set->fonts[i], FC_FILE, 0, &file) != FcResultMatch) continue;
        if (FcPatternGetInteger(set->fonts[i], FC_INDEX, 0, &index) != FcResultMatch) index = 0;
        hold_locked(file, index);
    }
    int count = held ? (int)g_hash_table_size(held) : 0;
    g_mutex_unlock(&hold_lock);
    return count;
}

void shim_hold_face_of(PangoFont *font) {
    if (font == NULL || !PANGO_IS_FC_FONT(font)) return;
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    FcPattern *pattern = pango_fc_font_get_pattern(PANGO_FC_FONT(font));
    G_GNUC_END_IGNORE_DEPRECATIONS
    FcChar8 *file = NULL;
    int index = 0;
    if (pattern == NULL || FcPatternGetString(pattern, FC_FILE, 0, &file) != FcResultMatch) return;
    if (FcPatternGetInteger(pattern, FC_INDEX, 0, &index) != FcResultMatch) index = 0;
    g_mutex_lock(&hold_lock);
    hold_locked(file, index);
    g_mutex_unlock(&hold_lock);
}
