#include "shim_pango_metrics.h"
#include <glib.h>

typedef PangoFontMetrics *(*get_metrics_fn)(PangoFont *, PangoLanguage *);

static GRecMutex metrics_lock;
static get_metrics_fn original_get_metrics;

static PangoFontMetrics *locked_get_metrics(PangoFont *font, PangoLanguage *language) {
    g_rec_mutex_lock(&metrics_lock);
    PangoFontMetrics *metrics = original_get_metrics(font, language);
    g_rec_mutex_unlock(&metrics_lock);
    return metrics;
}

/* The Pango running has the process-wide flag (see the header). */
static int pango_has_shared_flag(void) {
    /* No upper bound: no release without the flag is known; one goes here once there is. */
    return pango_version() >= PANGO_VERSION_ENCODE(1, 44, 1);
}

void shim_serialize_pango_font_metrics(PangoFont *font) {
    static gsize done = 0;
    if (font == NULL || !g_once_init_enter(&done)) return;
    PangoFontClass *klass = PANGO_FONT_GET_CLASS(font);
    if (pango_has_shared_flag() && klass->get_metrics != locked_get_metrics) {
        original_get_metrics = klass->get_metrics;
        klass->get_metrics = locked_get_metrics;
    }
    g_once_init_leave(&done, 1);
}
