#!/usr/bin/env python3
"""Generate resources/tasksets/facts.jsonl.

Only well-established, unambiguous facts (capitals, elements, planets, SI
units, defined constants, authors of famous books, ...). Most tasks are
multiple choice with four options; the choice order is shuffled with a fixed
seed. Answers are lower-case. Re-running reproduces the file byte for byte.
"""
from tasklib import rng_for, shuffled_choices, task, write_tasks

rng = rng_for("facts")

# (question, answer, [three distractors]) -- multiple choice
MC = [
    # Capitals
    ("What is the capital city of France?", "paris", ["lyon", "marseille", "nice"]),
    ("What is the capital city of Japan?", "tokyo", ["osaka", "kyoto", "yokohama"]),
    ("What is the capital city of Australia?", "canberra", ["sydney", "melbourne", "perth"]),
    ("What is the capital city of Canada?", "ottawa", ["toronto", "vancouver", "montreal"]),
    ("What is the capital city of Italy?", "rome", ["milan", "naples", "turin"]),
    ("What is the capital city of Germany?", "berlin", ["munich", "hamburg", "frankfurt"]),
    ("What is the capital city of Spain?", "madrid", ["barcelona", "seville", "valencia"]),
    ("What is the capital city of Egypt?", "cairo", ["alexandria", "luxor", "giza"]),
    ("What is the capital city of Kenya?", "nairobi", ["mombasa", "kisumu", "nakuru"]),
    ("What is the capital city of Turkey?", "ankara", ["istanbul", "izmir", "antalya"]),
    ("What is the capital city of Norway?", "oslo", ["bergen", "trondheim", "stavanger"]),
    ("What is the capital city of Portugal?", "lisbon", ["porto", "faro", "braga"]),
    ("What is the capital city of Greece?", "athens", ["thessaloniki", "patras", "heraklion"]),
    ("What is the capital city of Poland?", "warsaw", ["krakow", "gdansk", "wroclaw"]),
    ("What is the capital city of New Zealand?", "wellington", ["auckland", "christchurch", "hamilton"]),
    ("What is the capital city of Peru?", "lima", ["cusco", "arequipa", "trujillo"]),
    ("What is the capital city of Austria?", "vienna", ["salzburg", "graz", "innsbruck"]),
    ("What is the capital city of Nigeria?", "abuja", ["lagos", "kano", "ibadan"]),
    ("What is the capital city of Morocco?", "rabat", ["casablanca", "marrakesh", "fes"]),
    ("What is the capital city of South Korea?", "seoul", ["busan", "incheon", "daegu"]),
    # Chemistry
    ("Which chemical element has the symbol Au?", "gold", ["silver", "aluminium", "argon"]),
    ("Which chemical element has the symbol Fe?", "iron", ["fluorine", "fermium", "francium"]),
    ("Which chemical element has the symbol Na?", "sodium", ["nitrogen", "neon", "nickel"]),
    ("Which chemical element has the symbol K?", "potassium", ["krypton", "calcium", "phosphorus"]),
    ("Which chemical element has the symbol Pb?", "lead", ["platinum", "palladium", "phosphorus"]),
    ("Which chemical element has the symbol Ag?", "silver", ["gold", "argon", "arsenic"]),
    ("Which chemical element has the symbol Hg?", "mercury", ["hydrogen", "helium", "hafnium"]),
    ("Which chemical element has the symbol Cu?", "copper", ["curium", "calcium", "cobalt"]),
    ("Which element has atomic number 1?", "hydrogen", ["helium", "lithium", "oxygen"]),
    ("Which gas makes up most of the Earth's atmosphere by volume?", "nitrogen", ["oxygen", "carbon dioxide", "argon"]),
    ("Which gas do plants take in from the air for photosynthesis?", "carbon dioxide", ["oxygen", "nitrogen", "helium"]),
    ("Which substance is commonly known as table salt?", "sodium chloride", ["sodium bicarbonate", "calcium carbonate", "potassium nitrate"]),
    ("What is the chemical formula of water?", "h2o", ["co2", "h2o2", "nacl"]),
    # Astronomy
    ("Which is the largest planet in our solar system?", "jupiter", ["saturn", "neptune", "earth"]),
    ("Which planet is closest to the Sun?", "mercury", ["venus", "mars", "earth"]),
    ("Which planet is known as the Red Planet?", "mars", ["venus", "jupiter", "mercury"]),
    ("Which planet is third from the Sun?", "earth", ["mars", "venus", "mercury"]),
    ("Which planet has the hottest average surface temperature in our solar system?", "venus", ["mercury", "mars", "jupiter"]),
    ("Which planet is farthest from the Sun in our solar system?", "neptune", ["uranus", "saturn", "jupiter"]),
    ("Which is the second largest planet in our solar system?", "saturn", ["uranus", "neptune", "earth"]),
    # Physics / units
    ("What is the SI unit of force?", "newton", ["joule", "watt", "pascal"]),
    ("What is the SI unit of energy?", "joule", ["newton", "watt", "volt"]),
    ("What is the SI unit of power?", "watt", ["joule", "ampere", "ohm"]),
    ("What is the SI unit of electric current?", "ampere", ["volt", "ohm", "coulomb"]),
    ("What is the SI unit of electrical resistance?", "ohm", ["farad", "henry", "tesla"]),
    ("What is the SI unit of frequency?", "hertz", ["decibel", "newton", "weber"]),
    ("What is the SI unit of pressure?", "pascal", ["bar", "newton", "joule"]),
    ("What is the SI base unit of thermodynamic temperature?", "kelvin", ["celsius", "fahrenheit", "rankine"]),
    # Biology
    ("Which organelle is known as the powerhouse of the cell?", "mitochondria", ["ribosome", "nucleus", "golgi apparatus"]),
    ("What is the largest organ of the human body?", "skin", ["liver", "brain", "lungs"]),
    ("How many legs does an insect have?", "6", ["4", "8", "10"]),
    ("How many legs does a spider have?", "8", ["6", "10", "12"]),
    ("How many chambers does the human heart have?", "4", ["2", "3", "5"]),
    ("Which blood cells carry oxygen around the human body?", "red blood cells", ["white blood cells", "platelets", "plasma cells"]),
    # Literature and science history
    ("Who wrote the novel Pride and Prejudice?", "jane austen", ["charlotte bronte", "george eliot", "mary shelley"]),
    ("Who wrote the novel Nineteen Eighty-Four (1984)?", "george orwell", ["aldous huxley", "ray bradbury", "h. g. wells"]),
    ("Who wrote the play Hamlet?", "william shakespeare", ["christopher marlowe", "ben jonson", "john milton"]),
    ("Who wrote the novel War and Peace?", "leo tolstoy", ["fyodor dostoevsky", "anton chekhov", "ivan turgenev"]),
    ("Who wrote the novel Moby-Dick?", "herman melville", ["mark twain", "nathaniel hawthorne", "edgar allan poe"]),
    ("Who wrote the novel Don Quixote?", "miguel de cervantes", ["lope de vega", "gabriel garcia marquez", "jorge luis borges"]),
    ("Who wrote the novel Frankenstein?", "mary shelley", ["bram stoker", "jane austen", "emily bronte"]),
    ("Who wrote the novel Oliver Twist?", "charles dickens", ["thomas hardy", "william thackeray", "anthony trollope"]),
    ("Who wrote the novel Crime and Punishment?", "fyodor dostoevsky", ["leo tolstoy", "nikolai gogol", "alexander pushkin"]),
    ("Who wrote On the Origin of Species?", "charles darwin", ["gregor mendel", "isaac newton", "alfred russel wallace"]),
    ("Who wrote The Adventures of Tom Sawyer?", "mark twain", ["jack london", "herman melville", "charles dickens"]),
    ("Who painted the Mona Lisa?", "leonardo da vinci", ["michelangelo", "raphael", "vincent van gogh"]),
    ("Who discovered penicillin in 1928?", "alexander fleming", ["louis pasteur", "marie curie", "robert koch"]),
    ("Who was the first person to walk on the Moon?", "neil armstrong", ["buzz aldrin", "yuri gagarin", "john glenn"]),
    ("Who developed the theory of general relativity?", "albert einstein", ["isaac newton", "niels bohr", "max planck"]),
    # Geography
    ("Which is the largest ocean on Earth?", "pacific", ["atlantic", "indian", "arctic"]),
    ("Which is the largest country in the world by area?", "russia", ["canada", "china", "united states"]),
    ("What is the highest mountain on Earth above sea level?", "mount everest", ["k2", "kangchenjunga", "mont blanc"]),
    ("Off the coast of which country is the Great Barrier Reef?", "australia", ["indonesia", "brazil", "south africa"]),
    ("In which country is Mount Kilimanjaro?", "tanzania", ["kenya", "uganda", "ethiopia"]),
]

# (question, answer) -- free answer, numbers in plain decimal
FREE = [
    ("How many planets are in our solar system?", "8"),
    ("What is the atomic number of carbon?", "6"),
    ("What is the atomic number of oxygen?", "8"),
    ("At sea level, what is the boiling point of water in degrees Celsius?", "100"),
    ("What is absolute zero in degrees Celsius?", "-273.15"),
    ("What is the speed of light in a vacuum, in metres per second (exact SI value)?", "299792458"),
    ("How many bones are in the typical adult human skeleton?", "206"),
    ("How many chromosomes are in a normal human body cell?", "46"),
    ("In what year did the Second World War end?", "1945"),
    ("In what year did the Apollo 11 crew first land on the Moon?", "1969"),
    ("In what year was the United States Declaration of Independence adopted?", "1776"),
    ("In what year did the Berlin Wall fall?", "1989"),
    ("How many days are in a leap year?", "366"),
    ("What is the pH of pure water at 25 degrees Celsius?", "7"),
]

tasks = []
for q, a, d in MC:
    if len(d) != 3:
        raise SystemExit("need three distractors: " + q)
    tasks.append(task(q, a, shuffled_choices(rng, a, d)))
for q, a in FREE:
    tasks.append(task(q, a))
write_tasks("facts", tasks)
