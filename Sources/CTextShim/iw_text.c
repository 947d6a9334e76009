#include "iw_text.h"

#include <fribidi.h>

#include <ctype.h>
#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <hb-ft.h>
#include <hb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MOST_FACES = 64 };

typedef struct face_slot {
    char *path;
    int index;
    FcCharSet *charset; /* what fontconfig says the face covers (NULL for the primary) */
    FT_Face face;       /* loaded on first use */
    hb_font_t *font;
    int size;           /* the pixel size the face is set to */
    int failed;
    int color;          /* a colour emoji face of fixed-size bitmaps (Noto Color Emoji's CBDT) */
    int strike;         /* for such a face, the pixels an em of the strike selected holds */
} face_slot;

struct iw_text {
    FT_Library library;
    face_slot faces[MOST_FACES];
    int count;
    int ranked; /* fontconfig's fallbacks added */
    int emoji;  /* the colour emoji face's slot, 0 when there is none */
};

/* `value`, in a colour face's strike units (26.6 pixels at the strike's size), at the size
   asked: scaled by pixel size / strike, rounded to the nearest, the same on every machine. */
static long scaled(const face_slot *f, long value) {
    if (!f->color || f->strike <= 0 || f->size == f->strike) return value;
    long product = value * f->size;
    return product >= 0 ? (product + f->strike / 2) / f->strike : -((-product + f->strike / 2) / f->strike);
}

static void copy_text(char *out, size_t size, const char *text) {
    if (!out || size == 0) return;
    snprintf(out, size, "%s", text);
}

/* Letters and digits only, lower case: "DejaVu Sans" and "dejavu-sans" compare equal. */
static void squeeze(const char *in, char *out, size_t size) {
    size_t n = 0;
    for (; *in && n + 1 < size; in++) {
        unsigned char c = (unsigned char)*in;
        if (isalnum(c)) out[n++] = (char)tolower(c);
        else if (c >= 0x80) out[n++] = (char)c;
    }
    out[n] = 0;
}

int iw_text_find_family(const char *name, char *path, size_t path_size, int *index) {
    if (!FcInit()) return 0;
    FcPattern *pattern = FcNameParse((const FcChar8 *)name);
    if (!pattern) return 0;
    FcChar8 *asked = NULL;
    char wanted[256] = {0};
    if (FcPatternGetString(pattern, FC_FAMILY, 0, &asked) == FcResultMatch) squeeze((char *)asked, wanted, sizeof wanted);
    int found = 0;
    if (wanted[0]) {
        FcConfigSubstitute(NULL, pattern, FcMatchPattern);
        FcDefaultSubstitute(pattern);
        FcResult result;
        FcPattern *match = FcFontMatch(NULL, pattern, &result);
        if (match) {
            FcChar8 *family = NULL, *file = NULL;
            for (int i = 0; !found && FcPatternGetString(match, FC_FAMILY, i, &family) == FcResultMatch; i++) {
                char have[256];
                squeeze((char *)family, have, sizeof have);
                if (strcmp(have, wanted) == 0 && FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch) {
                    copy_text(path, path_size, (const char *)file);
                    if (FcPatternGetInteger(match, FC_INDEX, 0, index) != FcResultMatch) *index = 0;
                    found = 1;
                }
            }
            FcPatternDestroy(match);
        }
    }
    FcPatternDestroy(pattern);
    return found;
}

static int load(iw_text *text, int slot) {
    face_slot *f = &text->faces[slot];
    if (f->face) return 1;
    if (f->failed) return 0;
    if (FT_New_Face(text->library, f->path, f->index, &f->face) != 0) {
        f->face = NULL;
        f->failed = 1;
        return 0;
    }
    f->font = hb_ft_font_create_referenced(f->face);
    hb_ft_font_set_load_flags(f->font, FT_LOAD_DEFAULT); /* hinted advances, as the glyphs are drawn */
    f->size = 0;
    return 1;
}

iw_text *iw_text_open(const char *path, int index, char *message, size_t message_size) {
    iw_text *text = calloc(1, sizeof *text);
    if (!text) {
        copy_text(message, message_size, "out of memory");
        return NULL;
    }
    if (FT_Init_FreeType(&text->library) != 0) {
        copy_text(message, message_size, "FreeType could not start");
        free(text);
        return NULL;
    }
    text->faces[0].path = strdup(path);
    text->faces[0].index = index;
    text->count = 1;
    FT_Error status = FT_New_Face(text->library, path, index, &text->faces[0].face);
    if (status != 0) {
        snprintf(message, message_size, "cannot open font (FreeType error %d)", status);
        text->faces[0].face = NULL;
        iw_text_close(text);
        return NULL;
    }
    text->faces[0].font = hb_ft_font_create_referenced(text->faces[0].face);
    hb_ft_font_set_load_flags(text->faces[0].font, FT_LOAD_DEFAULT);
    return text;
}

void iw_text_close(iw_text *text) {
    if (!text) return;
    for (int i = 0; i < text->count; i++) {
        face_slot *f = &text->faces[i];
        if (f->font) hb_font_destroy(f->font);
        if (f->face) FT_Done_Face(f->face);
        if (f->charset) FcCharSetDestroy(f->charset);
        free(f->path);
    }
    if (text->library) FT_Done_FreeType(text->library);
    free(text);
}

static void add_emoji(iw_text *text);

/* The faces fontconfig ranks after the primary one's family: scalable and not colour (the
   emoji face, in colour, is added apart: see add_emoji). */
static void rank_fallbacks(iw_text *text) {
    text->ranked = 1;
    if (!FcInit()) return;
    FcPattern *pattern = FcPatternCreate();
    const char *family = text->faces[0].face->family_name;
    if (family) FcPatternAddString(pattern, FC_FAMILY, (const FcChar8 *)family);
    FcPatternAddBool(pattern, FC_SCALABLE, FcTrue);
    FcConfigSubstitute(NULL, pattern, FcMatchPattern);
    FcDefaultSubstitute(pattern);
    FcResult result;
    FcFontSet *set = FcFontSort(NULL, pattern, FcTrue, NULL, &result);
    if (set) {
        for (int i = 0; i < set->nfont && text->count < MOST_FACES; i++) {
            FcPattern *font = set->fonts[i];
            FcChar8 *file = NULL;
            FcCharSet *charset = NULL;
            FcBool scalable = FcFalse, color = FcFalse;
            int index = 0;
            if (FcPatternGetString(font, FC_FILE, 0, &file) != FcResultMatch) continue;
            if (FcPatternGetCharSet(font, FC_CHARSET, 0, &charset) != FcResultMatch) continue;
            FcPatternGetBool(font, FC_SCALABLE, 0, &scalable);
            FcPatternGetBool(font, FC_COLOR, 0, &color);
            if (!scalable || color) continue;
            FcPatternGetInteger(font, FC_INDEX, 0, &index);
            if (strcmp((const char *)file, text->faces[0].path) == 0 && index == text->faces[0].index) continue;
            face_slot *f = &text->faces[text->count++];
            f->path = strdup((const char *)file);
            f->index = index;
            f->charset = FcCharSetCopy(charset);
        }
        FcFontSetDestroy(set);
    }
    FcPatternDestroy(pattern);
    add_emoji(text);
}

/* The colour emoji font fontconfig gives for "emoji" (Noto Color Emoji, from Debian's
   fonts-noto-color-emoji), as the face of emoji: its glyphs are bitmaps in colour, and its
   ligatures draw sequences (a family joined by ZWJ, a flag's two letters, a skin tone) as one. */
static void add_emoji(iw_text *text) {
    if (text->count >= MOST_FACES) return;
    FcPattern *pattern = FcNameParse((const FcChar8 *)"emoji:color=true");
    if (!pattern) return;
    FcConfigSubstitute(NULL, pattern, FcMatchPattern);
    FcDefaultSubstitute(pattern);
    FcResult result;
    FcPattern *match = FcFontMatch(NULL, pattern, &result);
    FcChar8 *file = NULL;
    FcCharSet *charset = NULL;
    FcBool color = FcFalse;
    int index = 0;
    if (match && FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch &&
        FcPatternGetCharSet(match, FC_CHARSET, 0, &charset) == FcResultMatch &&
        FcPatternGetBool(match, FC_COLOR, 0, &color) == FcResultMatch && color) {
        FcPatternGetInteger(match, FC_INDEX, 0, &index);
        face_slot *f = &text->faces[text->count];
        f->path = strdup((const char *)file);
        f->index = index;
        f->charset = FcCharSetCopy(charset);
        f->color = 1;
        text->emoji = text->count++;
    }
    if (match) FcPatternDestroy(match);
    FcPatternDestroy(pattern);
}

static int has_glyph(iw_text *text, int slot, unsigned int point) {
    face_slot *f = &text->faces[slot];
    if (f->charset && !FcCharSetHasChar(f->charset, point)) return 0;
    return load(text, slot) && FT_Get_Char_Index(f->face, point) != 0;
}

/* Whether `point` (followed by `next`) is shown as an emoji: a pictograph of the planes' emoji
   blocks, a regional indicator (a flag's letter), or any character with the emoji variation
   selector after it. */
static int is_emoji(unsigned int point, unsigned int next) {
    return (point >= 0x1F000 && point <= 0x1FAFF) || next == 0xFE0F;
}

/* The face of `point` (followed by `next`): the colour emoji face for an emoji it has; else the
   first face, primary then fontconfig's ranking, with a glyph for it; the primary when none
   has (it draws its missing-glyph box). */
static int face_for(iw_text *text, unsigned int point, unsigned int next) {
    if (is_emoji(point, next)) {
        if (!text->ranked) rank_fallbacks(text);
        if (text->emoji && has_glyph(text, text->emoji, point)) return text->emoji;
    }
    if (has_glyph(text, 0, point)) return 0;
    if (!text->ranked) rank_fallbacks(text);
    for (int i = 1; i < text->count; i++)
        if (i != text->emoji && has_glyph(text, i, point)) return i;
    return 0;
}

static int set_size(iw_text *text, int slot, int pixel_size) {
    face_slot *f = &text->faces[slot];
    if (!load(text, slot)) return 0;
    if (f->size == pixel_size) return 1;
    if (f->color && f->face->num_fixed_sizes > 0) {
        /* Fixed bitmaps: the smallest strike at least as big (else the biggest), scaled down
           when drawn; positions are scaled likewise (see scaled). */
        int best = 0;
        for (int i = 1; i < f->face->num_fixed_sizes; i++) {
            int have = (int)(f->face->available_sizes[i].y_ppem >> 6);
            int chosen = (int)(f->face->available_sizes[best].y_ppem >> 6);
            if ((chosen < pixel_size && have > chosen) || (have >= pixel_size && have < chosen)) best = i;
        }
        if (FT_Select_Size(f->face, best) != 0) return 0;
        f->strike = (int)(f->face->available_sizes[best].y_ppem >> 6);
    } else if (FT_Set_Pixel_Sizes(f->face, 0, (FT_UInt)pixel_size) != 0) {
        return 0;
    }
    hb_ft_font_changed(f->font);
    f->size = pixel_size;
    return 1;
}

/* Marks, joiners and selectors belong with the character before them. */
static int clings(unsigned int point) {
    hb_unicode_general_category_t category = hb_unicode_general_category(hb_unicode_funcs_get_default(), point);
    return category == HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK ||
           category == HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK ||
           category == HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK || category == HB_UNICODE_GENERAL_CATEGORY_FORMAT ||
           (point >= 0xFE00 && point <= 0xFE0F) || (point >= 0xE0100 && point <= 0xE01EF) ||
           (point >= 0x1F3FB && point <= 0x1F3FF);
}

static int neutral(hb_script_t script) {
    return script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INHERITED || script == HB_SCRIPT_UNKNOWN;
}

typedef struct run {
    int start, count, face;
    hb_script_t script;
    int level; /* FriBidi's embedding level: even left to right, odd right to left */
} run;

/* The embedding level of each of the `count` code points of one line, by the Unicode
   bidirectional algorithm (UAX #9) as FriBidi implements it: the paragraph's direction from its
   first strong character (left to right without one), brackets paired, whitespace at the end
   reset to the paragraph's level (rule L1). Returns 0; -1 when memory runs out. */
static int bidi_levels(const unsigned int *points, int count, FriBidiLevel *levels) {
    FriBidiCharType *types = malloc(sizeof(FriBidiCharType) * (size_t)count);
    FriBidiBracketType *brackets = malloc(sizeof(FriBidiBracketType) * (size_t)count);
    int status = -1;
    if (types && brackets) {
        const FriBidiChar *text = (const FriBidiChar *)points;
        fribidi_get_bidi_types(text, count, types);
        fribidi_get_bracket_types(text, count, types, brackets);
        FriBidiParType base = FRIBIDI_PAR_ON;
        if (fribidi_get_par_embedding_levels_ex(types, brackets, count, &base, levels) != 0 &&
            fribidi_reorder_line(FRIBIDI_FLAGS_DEFAULT, types, count, 0, base, levels, NULL, NULL) != 0)
            status = 0;
    }
    free(types);
    free(brackets);
    return status;
}

/* Puts runs of uniform levels in visual order (rule L2): from the highest level down to the
   lowest odd one, every stretch of runs at that level or above is reversed. */
static void reorder(run *runs, int n) {
    int highest = 0, lowest_odd = 127;
    for (int r = 0; r < n; r++) {
        if (runs[r].level > highest) highest = runs[r].level;
        if (runs[r].level % 2 && runs[r].level < lowest_odd) lowest_odd = runs[r].level;
    }
    for (int level = highest; level >= lowest_odd; level--) {
        for (int r = 0; r < n;) {
            if (runs[r].level < level) {
                r++;
                continue;
            }
            int end = r;
            while (end + 1 < n && runs[end + 1].level >= level) end++;
            for (int a = r, b = end; a < b; a++, b--) {
                run t = runs[a];
                runs[a] = runs[b];
                runs[b] = t;
            }
            r = end + 1;
        }
    }
}

int iw_text_shape(iw_text *text, const unsigned int *points, int count, int pixel_size, iw_glyph *glyphs,
                  int capacity, long *advance) {
    *advance = 0;
    if (count <= 0) return 0;
    run *runs = malloc(sizeof(run) * (size_t)count);
    FriBidiLevel *levels = malloc(sizeof(FriBidiLevel) * (size_t)count);
    if (!runs || !levels || bidi_levels(points, count, levels) != 0) {
        free(runs);
        free(levels);
        return -1;
    }
    /* Runs of one face, one script and one embedding level, each shaped on its own. */
    hb_unicode_funcs_t *unicode = hb_unicode_funcs_get_default();
    int n = 0;
    for (int i = 0; i < count; i++) {
        unsigned int point = points[i];
        hb_script_t script = hb_unicode_script(unicode, point);
        run *last = n > 0 ? &runs[n - 1] : NULL;
        int face;
        unsigned int next = i + 1 < count ? points[i + 1] : 0;
        /* Marks and joiners stay with their base; spaces and punctuation with the face before
           them, unless it is the emoji face (whose spaces are wider, and which would turn a
           symbol after an emoji into one). */
        if (last && (clings(point) || (neutral(script) && !is_emoji(point, next) && last->face != text->emoji &&
                                       has_glyph(text, last->face, point))))
            face = last->face;
        else
            face = face_for(text, point, next);
        int level = levels[i];
        if (last && clings(point)) level = last->level; /* a mark stays with its base */
        if (last && last->face == face && last->level == level &&
            (neutral(script) || neutral(last->script) || script == last->script)) {
            if (neutral(last->script) && !neutral(script)) last->script = script;
            last->count++;
            continue;
        }
        runs[n++] = (run){i, 1, face, script, level};
    }
    free(levels);
    reorder(runs, n);
    int total = 0;
    long pen = 0;
    hb_buffer_t *buffer = hb_buffer_create();
    for (int r = 0; r < n; r++) {
        if (!set_size(text, runs[r].face, pixel_size)) {
            hb_buffer_destroy(buffer);
            free(runs);
            return -1;
        }
        hb_buffer_clear_contents(buffer);
        hb_buffer_add_utf32(buffer, points, count, (unsigned int)runs[r].start, runs[r].count);
        hb_buffer_set_script(buffer, neutral(runs[r].script) ? HB_SCRIPT_LATIN : runs[r].script);
        hb_buffer_set_direction(buffer, runs[r].level % 2 ? HB_DIRECTION_RTL : HB_DIRECTION_LTR);
        hb_buffer_guess_segment_properties(buffer);
        hb_shape(text->faces[runs[r].face].font, buffer, NULL, 0);
        unsigned int length = 0;
        hb_glyph_info_t *info = hb_buffer_get_glyph_infos(buffer, &length);
        hb_glyph_position_t *position = hb_buffer_get_glyph_positions(buffer, &length);
        const face_slot *f = &text->faces[runs[r].face];
        for (unsigned int g = 0; g < length; g++) {
            if (total < capacity) {
                glyphs[total] = (iw_glyph){runs[r].face, info[g].codepoint, pen + scaled(f, position[g].x_offset),
                                           scaled(f, position[g].y_offset)};
            }
            total++;
            pen += scaled(f, position[g].x_advance);
        }
    }
    hb_buffer_destroy(buffer);
    free(runs);
    *advance = pen;
    return total;
}

int iw_text_metrics(iw_text *text, int face, int pixel_size, int *ascender, int *descender) {
    if (face < 0 || face >= text->count || !set_size(text, face, pixel_size)) return -1;
    const face_slot *f = &text->faces[face];
    FT_Size_Metrics metrics = f->face->size->metrics;
    *ascender = (int)((scaled(f, metrics.ascender) + 63) >> 6);
    *descender = (int)(scaled(f, metrics.descender) >> 6);
    return 0;
}

int iw_text_is_color(iw_text *text, int face) {
    return face >= 0 && face < text->count && text->faces[face].color;
}

int iw_text_render_color(iw_text *text, int face, unsigned int index, int pixel_size, unsigned char **rgba,
                         int *width, int *height, int *left, int *top) {
    *rgba = NULL;
    if (face < 0 || face >= text->count || !set_size(text, face, pixel_size)) return -1;
    face_slot *f = &text->faces[face];
    if (FT_Load_Glyph(f->face, index, FT_LOAD_COLOR) != 0) return -1;
    FT_Bitmap bitmap = f->face->glyph->bitmap;
    int sw = (int)bitmap.width, sh = (int)bitmap.rows;
    int strike = f->strike > 0 ? f->strike : pixel_size;
    /* The strike's bitmap, area-averaged to the size asked (each target pixel the mean of the
       source pixels it covers, in integers): premultiplied BGRA in, premultiplied RGBA out. */
    int tw = sw > 0 ? (int)(((long)sw * pixel_size + strike - 1) / strike) : 0;
    int th = sh > 0 ? (int)(((long)sh * pixel_size + strike - 1) / strike) : 0;
    *width = tw;
    *height = th;
    *left = (int)scaled(f, (long)f->face->glyph->bitmap_left * 64) / 64;
    *top = (int)scaled(f, (long)f->face->glyph->bitmap_top * 64) / 64;
    if (tw == 0 || th == 0) return 0;
    if (bitmap.pixel_mode != FT_PIXEL_MODE_BGRA) return -1;
    unsigned char *out = calloc((size_t)tw * (size_t)th, 4);
    if (!out) return -1;
    for (int ty = 0; ty < th; ty++) {
        int y0 = (int)((long)ty * sh / th), y1 = (int)(((long)ty + 1) * sh / th);
        if (y1 <= y0) y1 = y0 + 1;
        for (int tx = 0; tx < tw; tx++) {
            int x0 = (int)((long)tx * sw / tw), x1 = (int)(((long)tx + 1) * sw / tw);
            if (x1 <= x0) x1 = x0 + 1;
            unsigned long sum[4] = {0, 0, 0, 0}, n = 0;
            for (int y = y0; y < y1 && y < sh; y++) {
                const unsigned char *row = bitmap.buffer + (long)y * bitmap.pitch;
                for (int x = x0; x < x1 && x < sw; x++) {
                    sum[0] += row[4 * x + 2];
                    sum[1] += row[4 * x + 1];
                    sum[2] += row[4 * x];
                    sum[3] += row[4 * x + 3];
                    n++;
                }
            }
            unsigned char *pixel = out + ((long)ty * tw + tx) * 4;
            for (int c = 0; c < 4; c++) pixel[c] = n ? (unsigned char)((sum[c] + n / 2) / n) : 0;
        }
    }
    *rgba = out;
    return 0;
}

const char *iw_text_face_path(iw_text *text, int face) {
    return face >= 0 && face < text->count ? text->faces[face].path : "";
}

int iw_text_render(iw_text *text, int face, unsigned int index, int pixel_size, const unsigned char **rows,
                   int *pitch, int *width, int *height, int *left, int *top, int *mono) {
    if (face < 0 || face >= text->count || !set_size(text, face, pixel_size)) return -1;
    FT_Face f = text->faces[face].face;
    if (FT_Load_Glyph(f, index, FT_LOAD_RENDER) != 0) return -1;
    FT_Bitmap bitmap = f->glyph->bitmap;
    *rows = bitmap.buffer;
    *pitch = bitmap.pitch;
    *width = (int)bitmap.width;
    *height = (int)bitmap.rows;
    *left = f->glyph->bitmap_left;
    *top = f->glyph->bitmap_top;
    *mono = bitmap.pixel_mode == FT_PIXEL_MODE_MONO;
    return 0;
}
