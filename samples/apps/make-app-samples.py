#!/usr/bin/env python3
"""Writes the seed-app samples exactly as each app persists them (Swift JSONEncoder defaults).

    python3 samples/apps/make-app-samples.py

- Data    -> base64 string (standard alphabet, padded, one line)
- Date    -> seconds since 2001-01-01T00:00:00Z, a Double (integral values printed without ".0")
- UUID    -> uppercase string; fixed here, so the output is reproducible
- URL     -> its absolute string
- enum with associated values -> {"caseName": {labelled values}}
- nil optionals are omitted; output is compact, keys in declaration order, non-ASCII kept as
  UTF-8, and "/" escaped as "\\/" (JSONEncoder does that unless .withoutEscapingSlashes is set).

Standard library only. The embedded JPEGs come from samples/apps/images/, which
samples/make-images.sh writes (small 300 x 400 / 400 x 300 JPEGs, quality 70).
"""

import base64
import datetime
import json
import os
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
IMAGES = os.path.join(HERE, "images")
REFERENCE_DATE = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)
NAMESPACE = uuid.UUID("6F0C5E2A-3B1D-4C8E-9A7F-2D4B6E8A0C1E")  # fixed, for uuid5


def data(name):
    """Swift `Data`: the file's bytes as base64."""
    with open(os.path.join(IMAGES, name), "rb") as f:
        return base64.b64encode(f.read()).decode("ascii")


def date(iso, fraction=0.0):
    """Swift `Date` with the default strategy: seconds since 2001-01-01 as a Double."""
    moment = datetime.datetime.fromisoformat(iso.replace("Z", "+00:00"))
    seconds = (moment - REFERENCE_DATE).total_seconds() + fraction
    return int(seconds) if seconds == int(seconds) else seconds


def fixed_uuid(name):
    """Swift `UUID`: uppercase string. Derived from a fixed name, so it never changes."""
    return str(uuid.uuid5(NAMESPACE, name)).upper()


def encode(value):
    """Bytes as Swift's JSONEncoder() writes them at its defaults."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("/", "\\/").encode("utf-8")


def write(relative, value):
    path = os.path.join(HERE, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(encode(value))
    print(f"{relative}: {os.path.getsize(path)} bytes")


# ---------------------------------------------------------------- MemoirAI: PersistableStorybook

MEMORY = [
    # The app paginates a memory itself: textPage index 1..total. The first break falls between
    # paragraphs, the second in the middle of one, as the app's character count would have it.
    "My father taught me to row on Birch Lake the summer I was thirteen. He sat in the back of the "
    "green boat with his hat over his eyes and said nothing at all, which I understood later was the "
    "whole lesson.\n\n"
    "The first morning I went in circles. The oars slipped out of the locks, one and then the other, "
    "and I splashed us both, and a heron on the far shore watched the whole performance with what I "
    "am sure was contempt.",

    "The second morning I went in bigger circles. By the end of the week I could get us to the island "
    "and back before the wind came up, and my father took his hat off his face and said, \u201cWell. "
    "Look at that.\u201d\n\n"
    "I have been told many nice things in my life, by many people. I am not sure any of them has "
    "meant more to me than those four words. He was not a man who handed out compliments. He handed "
    "out screwdrivers, and advice about tires, and the last piece of pie.",

    "So when he said \u201cLook at that,\u201d I looked. I looked at the island, and the dock, and my "
    "mother waving a dish towel from the porch, and the whole shining lake, and I thought: I did "
    "that. I got us here.\n\n"
    "I still row, a little, when my knees allow. I still go in circles now and then. And I still hear "
    "him, every time the boat finally points the right way.",
]

storybook = {
    "profileID": fixed_uuid("memoirai/profile/ruth"),
    "pageItems": [
        {"illustration": {"imageData": data("memoirai-lake.jpg"),
                          "caption": "Birch Lake, the summer I learned to row (1964)"}},
        {"textPage": {"index": 1, "total": 3, "body": MEMORY[0]}},
        {"textPage": {"index": 2, "total": 3, "body": MEMORY[1]}},
        {"textPage": {"index": 3, "total": 3, "body": MEMORY[2]}},
        {"illustration": {"imageData": data("memoirai-kitchen.jpg"),
                          "caption": "Mother\u2019s kitchen window, with the geranium she kept alive for twenty years"}},
        {"qrCode": {"id": fixed_uuid("memoirai/qr/audio"),
                    "url": "https://example.com/memoir/audio"}},
    ],
    "artStyle": "Realistic",
    "createdAt": date("2024-03-14T18:30:00Z", 0.482913),
    "cover": {
        "title": "Learning to Row",
        "subtitle": "A summer on Birch Lake",
        "accentHex": "#7C5C3A",
        "coverPhotoData": data("memoirai-cover.jpg"),
    },
}
write("memoirai/storybook.json", storybook)

# ---------------------------------------------------------------- Roger: GeneratedStory

story = {
    "title": "Emma\u2019s Big Day at Sunny Acres Farm",
    "characterName": "Emma",
    "characterImageData": data("roger-emma.jpg"),
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
                    "faceDescription": "long friendly face with a black nose and curious dark eyes",
                    "buildDescription": "small and stocky with thin legs",
                    "clothingDescription": "none",
                    "accessoriesDescription": "a small golden bell on a string around the neck",
                    # distinctiveFeatures is nil: the key is omitted
                },
            },
        ]
    },
    "pages": [
        {
            "pageNumber": 1,
            "text": "Emma woke up early, put on her favorite red sweater, and skipped down the lane to Sunny Acres Farm.",
            "scene": "Emma, a cheerful girl with brown curly hair and a red sweater, skipping down a sandy lane between green fields under a bright morning sun.",
            "imageData": data("roger-page1.jpg"),
        },
        {
            "pageNumber": 2,
            "text": "The big red barn was so tall that Emma had to tip her head all the way back to see the top.",
            "scene": "Emma standing small in front of a tall red barn with white-trimmed doors, looking up in wonder.",
            "imageData": data("roger-page2.jpg"),
        },
        {
            "pageNumber": 3,
            "text": "\u201cGood morning, Emma!\u201d said Farmer Jeremy, tipping his straw hat. \u201cWould you like to meet someone special?\u201d",
            "scene": "Farmer Jeremy, tall and lean in his checkered shirt, overalls and straw hat, greeting Emma in the farmyard.",
            "imageData": data("roger-page3.jpg"),
        },
        {
            "pageNumber": 4,
            "text": "Biscuit the goat trotted over, ding-ding went her little bell, and she nibbled Emma\u2019s sleeve hello.",
            "scene": "Biscuit, a small fluffy white goat with a golden bell, nuzzling Emma\u2019s sleeve in the green field while Emma giggles.",
            "imageData": data("roger-page4.jpg"),
        },
        {
            # not illustrated yet: imageData is nil, so the key is omitted
            "pageNumber": 5,
            "text": "When the sun went down, Emma waved goodbye to Farmer Jeremy and Biscuit. \u201cSee you tomorrow!\u201d she called.",
            "scene": "Sunset over the farm: Emma waving goodbye at the gate, Farmer Jeremy and Biscuit waving back beside the red barn, orange and pink sky.",
        },
    ],
    "createdAt": date("2024-06-02T09:15:27Z", 0.75),
}
write("roger/story.json", story)

# ---------------------------------------------------------------- InfiniteStories: Story

CONTENT = """Once upon a time, at the edge of a sleepy village, there was a forest called the Whispering Woods. The trees there were so old and so tall that their leaves seemed to talk to each other whenever the wind passed through. And in a little blue house beside that forest lived a girl named Luna.

Luna was seven years old. She had a gap where her front tooth used to be, a pocket full of interesting pebbles, and a secret that only her grandmother knew: Luna could talk to fireflies.

Every summer evening, when the sky turned the color of blueberry jam, the fireflies came out of the Whispering Woods and drifted over Luna's garden. They blinked hello, and Luna blinked back with her flashlight, and they told her everything that had happened in the forest that day. Which rabbit had lost a button. Which owl had a cold. Which stream had decided to sing in a new key.

One evening, the fireflies did not come.

Luna waited on the back step in her pajamas. She waited until the first star came out, and the second, and the third. The garden stayed dark. The Whispering Woods stayed quiet. Even the crickets seemed to be holding their breath.

"Something is wrong," Luna said. She put on her rain boots, because rain boots are good for adventures, and took her flashlight and her grandmother's old brass lantern, and she walked to the edge of the trees.

"Hello?" she whispered. "Fireflies? Where are you?"

Far away, deep in the woods, something blinked. Once. Twice. Then nothing.

Luna followed the blinking. She followed it past the mossy rock shaped like a sleeping bear, over the little bridge that creaked, and around the hollow tree where the badger family lived. The woods were darker than she had ever seen them, but Luna was brave, and besides, she had a lantern.

At last she came to a clearing, and there, sitting on a mushroom, was the smallest firefly she had ever seen. His light was flickering, weak and tired, like a candle at the end of its wick.

"Oh, little one," said Luna, kneeling down. "What happened?"

"I'm Pim," said the firefly in a voice like a tiny bell. "Tonight is the Festival of Lights, when all the fireflies shine together. But I can't make my light stay on. So the others said they would wait for me, and now nobody is shining at all, and it's all my fault."

Luna thought about this. She thought about the time she had tried to whistle and could only make a sound like a leaky balloon. She thought about how her grandmother had said, "Everybody learns at their own speed, sweet pea. Even the moon takes a whole month to get full."

"Maybe," Luna said slowly, "your light just needs a friend."

She opened the little door of her grandmother's lantern and held it out. Pim crawled inside and sat beside the warm glow. For a moment, nothing happened. Then his light flickered, and steadied, and began to shine, soft and golden and strong.

All around the clearing, one by one, the other fireflies lit up. Ten, then a hundred, then more than Luna could count, until the whole forest glowed like the inside of a lantern.

The Festival of Lights had begun.

The fireflies danced all night, and Luna danced with them, and when at last she walked home, Pim rode on her shoulder and lit the path all the way to her blue front door.

"Thank you, Luna," he whispered. "You helped me shine."

Luna smiled a gap-toothed smile and climbed into bed, and outside her window, the whole garden twinkled goodnight.

The end."""

bedtime = {
    "title": "Luna and the Festival of Lights",
    "content": CONTENT,
    "hero": {
        "name": "Luna",
        "age": 7,
        "appearance": "a small girl with curly black hair in two puffs, a gap-toothed smile, yellow rain boots and star-patterned pajamas",
        "traits": ["brave", "curious", "kind"],
        "specialAbility": "can talk to fireflies",
    },
    "audioFileName": "story_1710441000.mp3",
    "createdAt": date("2024-03-14T19:10:00Z", 0.125),
    "playCount": 3,
    "isFavorite": True,
}
write("infinitestories/story.json", bedtime)
