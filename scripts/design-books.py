"""Writes the books the design sheets show besides the samples (see scripts/design-sheets.sh):
a long memoir with front matter and a panorama, an Arabic picture book with a spread, and a
Japanese book with a long title. Built from the samples' own words and pictures, so the sheets
need nothing the repository does not hold. Usage: design-books.py SAMPLES OUT"""
import json, os, random, shutil, sys

samples, out = sys.argv[1], sys.argv[2]


def book_dir(name, images):
    d = os.path.join(out, name)
    os.makedirs(os.path.join(d, "images"), exist_ok=True)
    for src, dst in images:
        shutil.copyfile(os.path.join(samples, src), os.path.join(d, "images", dst))
    return d


def write(d, book):
    with open(os.path.join(d, "book.json"), "w", encoding="utf-8") as f:
        json.dump(book, f, ensure_ascii=False, indent=1)


# A memoir of fifteen chapters of different lengths, the sample memoir's paragraphs in a fixed
# shuffle, with the matter a printed memoir has and a photo before the third chapter's text.
memoir = json.load(open(os.path.join(samples, "memoir", "book.json"), encoding="utf-8"))
paragraphs = [p for page in memoir["pages"] for p in (page.get("text") or "").split("\n\n") if p.strip()]
photo = next(p for p in memoir["pages"] if p["type"] == "photo")
rng = random.Random(5)
pages = []
for c in range(15):
    pages.append({"type": "chapter", "title": f"Chapter {c + 1}"})
    if c == 2:
        pages.append({"type": "photo", "image": photo["image"], "caption": photo.get("caption", "")})
    pages.append({"type": "text", "text": "\n\n".join(rng.choice(paragraphs) for _ in range(2 + (c * 5) % 11))})
d = book_dir("memoir-long", [])
shutil.copytree(os.path.join(samples, "memoir", "images"), os.path.join(d, "images"), dirs_exist_ok=True)
write(d, {"schema": 1, "kind": "memoir", "title": "Fifteen Rooms", "subtitle": "A Life in Houses", "author": "Ada Lane",
          "language": "en-US", "created": "2024-03-01", "format": {"trim": "6x9"},
          "matter": {"dedication": "For Tom, who kept every letter.", "edition": "First edition",
                     "publisher": "Porter Street Press", "aboutTheAuthor": "Ada Lane was born in 1948 on Porter Street."},
          "pages": pages})

# An Arabic picture book: bound on the right, its spread read right to left.
d = book_dir("arabic", [("storybook/images/p01-morning.jpg", "a.jpg"), ("storybook/images/spread-bay.jpg", "bay.jpg"),
                        ("storybook/images/p11-sleep.jpg", "b.jpg")])
write(d, {"schema": 1, "kind": "storybook", "title": "الثعلب والمنارة", "author": "ليلى", "language": "ar",
          "created": "2024-03-01", "format": {"trim": "8.5x8.5"},
          "pages": [{"type": "illustration", "image": "images/a.jpg", "text": "في صباح مشرق خرج الثعلب الصغير من بيته."},
                    {"type": "spread", "image": "images/bay.jpg", "rightText": "كان الخليج واسعا وأزرق.", "leftText": "وفي البعيد لمعت المنارة."},
                    {"type": "illustration", "image": "images/b.jpg", "text": "ونام الثعلب سعيدا."}]})

# A Japanese book whose long title breaks only between words.
d = book_dir("japanese", [("storybook/images/p09-light.jpg", "a.jpg")])
write(d, {"schema": 1, "kind": "storybook", "title": "ハリネズミのハリーとふしぎなもりのおともだち", "language": "ja",
          "created": "2024-03-01", "format": {"trim": "8.5x8.5"},
          "pages": [{"type": "illustration", "image": "images/a.jpg", "text": "よるになると、もりはしずかになりました。"}]})
