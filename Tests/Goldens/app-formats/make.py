#!/usr/bin/env python3
"""Writes the three app-format golden cases exactly as each app persists them.

    python3 Tests/Goldens/app-formats/make.py

Each app encodes with Swift's JSONEncoder() at its defaults:
- Data    -> base64 string (standard alphabet, padded, one line)
- Date    -> seconds since 2001-01-01T00:00:00Z, a Double (integral values printed without ".0")
- UUID    -> uppercase string; fixed here, so the output never changes
- URL     -> its absolute string
- enum with associated values -> {"caseName": {labelled values}}
- nil optionals are omitted; output is compact, keys in declaration order, non-ASCII kept as
  UTF-8, and "/" escaped as "\\/" (JSONEncoder does that unless .withoutEscapingSlashes is set).

Standard library only. The embedded JPEGs are the small files in each case's images/ folder,
which Tests/Goldens/make-images.sh draws.
"""

import base64
import datetime
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE_DATE = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)


def data(case, name):
    """Swift `Data`: the file's bytes as base64."""
    with open(os.path.join(HERE, case, "images", name), "rb") as f:
        return base64.b64encode(f.read()).decode("ascii")


def date(iso, fraction=0.0):
    """Swift `Date` with the default strategy: seconds since 2001-01-01 as a Double."""
    moment = datetime.datetime.fromisoformat(iso.replace("Z", "+00:00"))
    seconds = (moment - REFERENCE_DATE).total_seconds() + fraction
    return int(seconds) if seconds == int(seconds) else seconds


def encode(value):
    """Bytes as Swift's JSONEncoder() writes them at its defaults."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("/", "\\/").encode("utf-8")


def write(relative, value):
    path = os.path.join(HERE, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(encode(value))
    print(f"app-formats/{relative}: {os.path.getsize(path)} bytes")


# ---------------------------------------------------------------- MemoirAI: PersistableStorybook
# One photo with a caption, one memory the app split into two text pages (the break falls inside
# a paragraph), and a QR code. The cover has a custom accent and a photo.

write("memoirai/storybook.json", {
    "profileID": "3F2504E0-4F89-41D3-9A0C-0305E82C3301",
    "pageItems": [
        {"illustration": {"imageData": data("memoirai", "lake.jpg"),
                          "caption": "Birch Lake, the summer of 1974"}},
        {"textPage": {"index": 1, "total": 2,
                      "body": "My father taught me to row on Birch Lake the summer I was thirteen. "
                              "He sat in the back of the green boat with his hat over his eyes and said "
                              "nothing at all, which I understood later was the whole lesson.\n\n"
                              "The first morning I went in circles. The oars slipped out of the locks,"}},
        {"textPage": {"index": 2, "total": 2,
                      "body": "one and then the other, and a heron on the far shore watched the whole "
                              "performance with what I am sure was contempt.\n\n"
                              "By the end of the week I could get us to the island and back before the "
                              "wind came up, and my father took his hat off his face and said, "
                              "\u201cWell. Look at that.\u201d"}},
        {"qrCode": {"id": "9B1DEB4D-3B7D-4BAD-9BDD-2B0D7B3DCB6D",
                    "url": "https://example.com/memoir/birch-lake"}},
    ],
    "artStyle": "Realistic",
    "createdAt": date("2024-03-14T18:30:00Z", 0.482913),
    "cover": {
        "title": "Learning to Row",
        "subtitle": "A summer on Birch Lake",
        "accentHex": "#3A6B7C",
        "coverPhotoData": data("memoirai", "cover.jpg"),
    },
})

# ---------------------------------------------------------------- Roger: GeneratedStory
# Two pages: the first illustrated, the second not yet (imageData nil: key omitted, so it gets a
# placeholder drawn from its scene). Biscuit has no distinctiveFeatures (key omitted).

write("roger/story.json", {
    "title": "Emma Visits the Farm",
    "characterName": "Emma",
    "characterImageData": data("roger", "emma.jpg"),
    "characterManifest": {
        "characters": [
            {
                "name": "Farmer Jeremy",
                "role": "supporting",
                "appearance": {
                    "ageDescription": "elderly man, approximately 65-70 years old",
                    "hairDescription": "short gray hair, slightly balding on top",
                    "faceDescription": "kind wrinkled face with warm smile and rosy cheeks",
                    "buildDescription": "tall and lean",
                    "clothingDescription": "red and white checkered flannel shirt, faded blue denim overalls",
                    "accessoriesDescription": "weathered straw hat with faded red band",
                    "distinctiveFeatures": "bushy white eyebrows, deep laugh lines",
                },
            },
            {
                "name": "Biscuit",
                "role": "creature",
                "appearance": {
                    "ageDescription": "young goat, about one year old",
                    "hairDescription": "short fluffy white coat",
                    "faceDescription": "long friendly face with a black nose",
                    "buildDescription": "small and stocky with thin legs",
                    "clothingDescription": "none",
                    "accessoriesDescription": "a small golden bell on a string",
                },
            },
        ]
    },
    "pages": [
        {
            "pageNumber": 1,
            "text": "Emma skipped down the lane to the big red barn.",
            "scene": "Emma, a girl in a red sweater, skipping towards a tall red barn on a sunny morning.",
            "imageData": data("roger", "page1.jpg"),
        },
        {
            "pageNumber": 2,
            "text": "\u201cGood morning!\u201d said Farmer Jeremy, and Biscuit the goat rang her bell.",
            "scene": "Farmer Jeremy in his straw hat waving at Emma while Biscuit the goat trots over.",
        },
    ],
    "createdAt": date("2024-06-02T09:15:27Z", 0.75),
})

# ---------------------------------------------------------------- InfiniteStories: Story
# A short bedtime story of four paragraphs; no pages and no pictures.

write("infinitestories/story.json", {
    "title": "Luna and the Fireflies",
    "content": (
        "Once upon a time, at the edge of a sleepy village, there was a forest called the Whispering "
        "Woods. In a little blue house beside it lived a girl named Luna, who could talk to fireflies.\n\n"
        "One evening, the fireflies did not come. Luna put on her rain boots, took her grandmother's "
        "lantern, and walked to the edge of the trees.\n\n"
        "Deep in the woods sat the smallest firefly she had ever seen. \"I can't make my light stay on,\" "
        "he said. Luna opened the lantern, and he crawled inside beside the warm glow, and began to shine.\n\n"
        "All around the clearing, the other fireflies lit up, one by one. The end."
    ),
    "hero": {
        "name": "Luna",
        "age": 7,
        "appearance": "curly black hair in two puffs and yellow rain boots",
        "traits": ["brave", "kind"],
        "specialAbility": "can talk to fireflies",
    },
    "audioFileName": "story_1710441000.mp3",
    "createdAt": date("2024-03-14T19:10:00Z", 0.125),
    "playCount": 3,
    "isFavorite": True,
})
