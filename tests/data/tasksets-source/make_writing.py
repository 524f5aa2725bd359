#!/usr/bin/env python3
"""Generate resources/tasksets/writing.jsonl.

Writing and language tasks with an objectively checkable short answer:
spelling, antonyms, synonyms, grammatical word choice, irregular and regular
plurals, and word/letter counts. Counts are computed here (a word is a
whitespace-separated token; the counted sentences contain no hyphens,
apostrophes or digits, so the count is unambiguous). Answers are lower-case.
Re-running reproduces the file byte for byte.
"""
from tasklib import num, rng_for, shuffled_choices, task, write_tasks

rng = rng_for("writing")
tasks = []

SPELLING = [
    ("accommodate", ["accomodate", "acommodate", "accommodete"]),
    ("necessary", ["neccessary", "necesary", "neccesary"]),
    ("separate", ["seperate", "separete", "seperete"]),
    ("receive", ["recieve", "receeve", "recive"]),
    ("occurrence", ["occurence", "ocurrence", "occurrance"]),
    ("embarrass", ["embarass", "embarrase", "embaress"]),
    ("rhythm", ["rythm", "rhythem", "rhytm"]),
    ("believe", ["beleive", "belive", "beleave"]),
    ("definitely", ["definately", "definitly", "defenitely"]),
    ("restaurant", ["restaraunt", "restuarant", "resturant"]),
    ("privilege", ["priviledge", "privelege", "privilage"]),
    ("maintenance", ["maintainance", "maintenence", "maintanance"]),
    ("recommend", ["reccommend", "recomend", "reccomend"]),
    ("tomorrow", ["tommorow", "tomorow", "tommorrow"]),
    ("beginning", ["begining", "beginnig", "beggining"]),
    ("government", ["goverment", "governmant", "govermant"]),
    ("environment", ["enviroment", "environmant", "envirnment"]),
    ("argument", ["arguement", "argumant", "arguemant"]),
    ("weird", ["wierd", "weerd", "wiered"]),
]
# The options are listed in the prompt so that every prompt is distinct.
for i, (word, wrong) in enumerate(SPELLING):
    choices = shuffled_choices(rng, word, wrong)
    head = "Which word is spelled correctly" if i % 2 == 0 else "Which of these words has the correct English spelling"
    tasks.append(task("%s: %s?" % (head, ", ".join(choices)), word, choices))

ANTONYMS = [
    ("ancient", "modern", ["old", "antique", "historic"]),
    ("generous", "stingy", ["kind", "giving", "wealthy"]),
    ("expand", "contract", ["grow", "stretch", "enlarge"]),
    ("victory", "defeat", ["triumph", "success", "battle"]),
    ("ascend", "descend", ["climb", "rise", "mount"]),
    ("permanent", "temporary", ["lasting", "stable", "fixed"]),
    ("scarce", "abundant", ["rare", "limited", "sparse"]),
    ("brave", "cowardly", ["bold", "daring", "heroic"]),
    ("increase", "decrease", ["raise", "expand", "boost"]),
    ("transparent", "opaque", ["clear", "glassy", "visible"]),
    ("accept", "reject", ["receive", "admit", "agree"]),
]
for word, ans, wrong in ANTONYMS:
    tasks.append(task("Which word is an antonym of (opposite in meaning to) the word \"%s\"?" % word,
                      ans, shuffled_choices(rng, ans, wrong)))

SYNONYMS = [
    ("rapid", "fast", ["slow", "heavy", "quiet"]),
    ("begin", "start", ["finish", "wait", "pause"]),
    ("enormous", "huge", ["tiny", "narrow", "fragile"]),
    ("happy", "joyful", ["angry", "tired", "anxious"]),
    ("difficult", "hard", ["easy", "simple", "smooth"]),
    ("purchase", "buy", ["sell", "borrow", "lend"]),
    ("silent", "quiet", ["loud", "noisy", "busy"]),
    ("wealthy", "rich", ["poor", "needy", "humble"]),
    ("error", "mistake", ["answer", "success", "rule"]),
    ("assist", "help", ["hinder", "ignore", "block"]),
    ("vanish", "disappear", ["appear", "remain", "arrive"]),
]
for word, ans, wrong in SYNONYMS:
    tasks.append(task("Which word is a synonym of (closest in meaning to) the word \"%s\"?" % word,
                      ans, shuffled_choices(rng, ans, wrong)))

GRAMMAR = [
    ("She ___ to the store yesterday.", "went", ["goes", "going", "gone"]),
    ("The dog wagged ___ tail.", "its", ["it's", "its'"]),
    ("___ going to be late if they miss the bus.", "they're", ["their", "there"]),
    ("Please put the boxes over ___ by the door.", "there", ["their", "they're"]),
    ("Is this ___ umbrella?", "your", ["you're"]),
    ("She is taller ___ her brother.", "than", ["then"]),
    ("The teacher gave the books to Sam and ___.", "me", ["i", "myself"]),
    ("They have already ___ their homework.", "done", ["did", "doing", "do"]),
    ("Yesterday we ___ a film at the cinema.", "watched", ["watch", "watches", "watching"]),
    ("The children ___ playing in the garden right now.", "are", ["is", "was", "be"]),
    ("I have lived in this town ___ 2010.", "since", ["for", "during", "while"]),
    ("She is very good ___ playing the piano.", "at", ["in", "on", "of"]),
    ("This is the ___ cake I have ever eaten.", "best", ["better", "good", "most good"]),
    ("He ran ___ than all of his friends.", "faster", ["fastest", "fast", "more fast"]),
]
for sentence, ans, wrong in GRAMMAR:
    tasks.append(task("Grammar: choose the word that correctly completes the sentence \"%s\"" % sentence,
                      ans, shuffled_choices(rng, ans, wrong)))

PLURALS = [
    ("child", "children"), ("mouse", "mice"), ("goose", "geese"), ("tooth", "teeth"),
    ("foot", "feet"), ("woman", "women"), ("knife", "knives"), ("leaf", "leaves"),
    ("wolf", "wolves"), ("box", "boxes"), ("city", "cities"), ("potato", "potatoes"),
    ("ox", "oxen"), ("crisis", "crises"), ("criterion", "criteria"), ("sheep", "sheep"),
    ("hero", "heroes"), ("church", "churches"),
]
for word, plural in PLURALS:
    tasks.append(task("What is the plural form of the English noun \"%s\"? Answer with one word." % word, plural))

SENTENCES = [
    "The quick brown fox jumps over the lazy dog.",
    "Every morning she writes three pages in her journal before breakfast.",
    "A good paragraph begins with a clear topic sentence.",
    "Rain fell softly on the old tin roof all night long.",
    "Writers often revise their drafts many times before they feel satisfied.",
    "The library opens at nine.",
    "After the long meeting the team finally agreed on a name for the new product.",
    "Short sentences can be powerful.",
    "My grandmother keeps a small garden full of herbs and bright yellow flowers.",
    "Please read the instructions carefully before you start the test.",
]
for s in SENTENCES:
    for bad in "-'0123456789":
        assert bad not in s, s
    tasks.append(task("How many words are in the following sentence? \"%s\"" % s, num(len(s.split()))))

LETTERS = ["encyclopedia", "rhythm", "onomatopoeia", "necessary", "strengths", "alphabet"]
for w in LETTERS:
    assert w.isalpha()
    tasks.append(task("How many letters are in the word \"%s\"?" % w, num(len(w))))

write_tasks("writing", tasks)
