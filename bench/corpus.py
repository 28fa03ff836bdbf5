"""Deterministic benchmark corpus for utf8conv's bench/run.

Text comes from the word lists below and Python's Mersenne Twister with
fixed seeds: no network, no external data.  Every file is cut at a
character boundary just below the requested size.

Files (SIZE bytes each, give or take a few bytes):

  ascii.txt         English prose, ASCII only
  gf.txt            German/French prose: ~4% non-ASCII letters, plus the
                    euro sign, curly quotes and apostrophes
  gf-latin1.txt     the same text with the euro sign and the curly quotes
                    mapped to Latin-1 (so it converts to ISO-8859-1)
  gf.cp1252         the German/French text encoded as CP1252
  gf-invalid.txt    gf.txt with invalid UTF-8 inserted: ~0.5% of the bytes
  ru.txt            Russian prose
  zh.txt            Chinese prose
  emoji.txt         English prose in which ~10% of the characters are emoji
                    (all outside the BMP: 4 bytes in UTF-8)
  ascii.utf16le     UTF-16LE of English prose
  zh.utf16le        UTF-16LE of Chinese prose

and a 4 MiB slice of each (NAME.slice) for the instruction counts.
"""

import os
import random

VERSION = 3  # bump when the generated text changes

SLICE = 4 << 20

# ---------------------------------------------------------------------------
# Word lists.

EN = """the of and to a in is it you that he was for on are with as I his they
be at one have this from or had by hot word but what some we can out other
were all there when up use your how said an each she which do their time if
will way about many then them write would like so these her long make thing
see him two has look more day could go come did number sound no most people
my over know water than call first who may down side been now find any new
work part take get place made live where after back little only round man
year came show every good me give our under name very through just form
sentence great think say help low line differ turn cause much mean before
move right boy old too same tell does set three want air well also play
small end put home read hand port large spell add even land here must big
high such follow act why ask men change went light kind off need house
picture try us again animal point mother world near build self earth father
head stand own page should country found answer school grow study still
learn plant cover food sun four between state keep eye never last let
thought city tree cross farm hard start might story saw far sea draw left
late run while press close night real life few north open seem together
next white children begin got walk example ease paper group always music
those both mark often letter until mile river car feet care second book
carry took science eat room friend began idea fish mountain stop once base
hear horse cut sure watch color face wood main enough plain girl usual
young ready above ever red list though feel talk bird soon body dog family
direct pose leave song measure door product black short numeral class wind
question happen complete ship area half rock order fire south problem piece
told knew pass since top whole king space heard best hour better true during
hundred five remember step early hold west ground interest reach fast verb
sing listen six table travel less morning ten simple several vowel toward
war lay against pattern slow center love person money serve appear road map
rain rule govern pull cold notice voice unit power town fine certain fly fall
lead cry dark machine note wait plan figure star box noun field rest correct
able pound done beauty drive stood contain front teach week final gave green
quick develop ocean warm free minute strong special mind behind clear tail
produce fact street inch multiply nothing course stay wheel full force blue
object decide surface deep moon island foot system busy test record boat
common gold possible plane stead dry wonder laugh thousand ago ran check
game shape equate miss brought heat snow tire bring yes distant fill east
paint language among""".split()

DE_PLAIN = """und der die das ist nicht ein eine mit auf den von zu sich des im dem
es als auch nach wie bei noch aber wir sie er ich sind wird werden hat haben
oder nur um so wenn dann kann man schon sehr viel mehr hier dort immer heute
morgen gestern wieder jetzt Haus Stadt Zeit Jahr Leben Arbeit Wasser Buch Kind
Welt Land Hand Tag Nacht Weg Frage Antwort Freund Schule Garten Fenster Wald
Berg Fluss Himmel Sonne Regen Wind Winter Sommer Abend Mittag Zimmer Tisch
gehen sehen machen sagen kommen geben finden denken leben stehen bleiben
liegen halten bringen nehmen lesen schreiben spielen lernen arbeiten wohnen
kaufen fragen suchen zeigen alt neu gut klein lang kurz hoch tief warm kalt
schnell langsam hell dunkel rot blau gelb gern bald oft selten vielleicht
zusammen allein endlich plötzlich manchmal Mutter Vater Bruder Schwester
Familie Zeitung Bahnhof Markt Kirche Brot Milch Wein Bier Kaffee Stunde
Woche Monat Minute Sprache Geschichte Musik Bild Farbe Beispiel Ende Anfang
Name Idee Grund Recht Teil Seite Zug Auto Platz Reise""".split()

DE_ACCENT = """für über können müssen größer Straße schön Mädchen Bäume hören Tür
Käse Brücke fünf zwölf natürlich während Geschäft Grüße weiß heißen später
möglich Frühling Öffnung Übung Äpfel Gebäude Stühle Bücher Städte Länder
Mütter Väter Brüder Söhne Töchter Hände Füße Gäste Plätze Züge Flüsse Wälder
Nächte Tür Küche Glück Gefühl Übersetzung ähnlich ungefähr schließlich
fröhlich täglich zurück würde hätte wäre könnte müsste dürfen früh spät
Frühstück Gespräch Mädchen Straßenbahn Größe Höhe Lösung Prüfung Erklärung
Gemüse Süden Norden Rücken Schlüssel""".split()

FR_PLAIN = """le la les de des un une et est dans pour pas que qui sur avec par plus
tout nous vous ils elle mais comme faire dire avoir aller voir savoir pouvoir
vouloir venir prendre temps jour homme femme monde vie maison ville pays main
chose petit grand bon nouveau jeune vieux toujours encore rien sans sous
entre depuis pendant avant bien aussi alors donc ainsi parce soir matin nuit
semaine mois heure ami enfant livre table porte rue route voiture train eau
pain vin soleil pluie vent mer montagne jardin fleur arbre chat chien
travail histoire musique couleur exemple question raison moment partie place
famille parents mot langue pierre chemin village marchand""".split()

FR_ACCENT = """été très café où à déjà même être élève français garçon leçon
fenêtre forêt hôtel château théâtre école général société première problème
après crème Noël naïve là voilà réponse économie université région décembre
février qualité sécurité modèle intérêt âge côté goût fête tête bête fièvre
mère père frère lumière rivière prière entrée année idée musée pensée journée
élégant célèbre désolé préféré réussir répéter préparer éléphant étudiant
étranger étoile événement périodique ça reçu déçu naître connaître""".split()

FR_ELIDED = """l’école l’homme l’eau l’ami d’un d’une d’abord c’est qu’il qu’elle
j’ai n’est s’il jusqu’à aujourd’hui l’été l’hôtel""".split()

RU = """и в не на я быть он с что а по это она этот к но они мы как из у
который то за свой что весь год от так о для ты же все тот мочь вы человек
такой его сказать только или ещё бы себя один как уже до время если сам
когда другой вот говорить наш мой знать стать при чтобы дело жизнь кто
первый очень два день её новый рука даже во со раз где там под можно ну
какой после их работа без самый потом надо хотеть ли слово идти большой
должен место иметь ничего то сейчас тут лицо каждый друг нет теперь ни глаз
тоже тогда видеть вопрос через да здесь дом да сторона какой-то думать
сделать страна жить чем мир об последний случай голова более делать что-то
смотреть ребёнок просто конечно сила российский конец перед несколько вид
система всегда работать между три нет понять пойти часть спросить город
дать также никто понимать получить отношение лишь второй именно вода
""".split()

ZH_CHARS = ("的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就"
            "分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经"
            "十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当"
            "使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相"
            "全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此"
            "变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果"
            "料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统"
            "接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则"
            "任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济"
            "阶油思术极交受联什认六共权收证改清美再采转更单风切打白教速花带安"
            "场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节"
            "话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影"
            "算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列"
            "习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标"
            "写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属"
            "圆包火住调满县局照参红细引听该铁价严龙飞")

EMOJI = [chr(c) for c in (
    0x1F600, 0x1F601, 0x1F602, 0x1F603, 0x1F604, 0x1F605, 0x1F606, 0x1F609,
    0x1F60A, 0x1F60D, 0x1F60E, 0x1F618, 0x1F622, 0x1F62D, 0x1F631, 0x1F644,
    0x1F914, 0x1F923, 0x1F929, 0x1F970, 0x1F973, 0x1F97A, 0x1F44D, 0x1F44F,
    0x1F64F, 0x1F64C, 0x1F4AA, 0x1F440, 0x1F525, 0x1F4AF, 0x1F389, 0x1F38A,
    0x1F381, 0x1F382, 0x1F308, 0x1F30D, 0x1F319, 0x1F31F, 0x1F34E, 0x1F355,
    0x1F37A, 0x1F377, 0x1F680, 0x1F697, 0x1F6B2, 0x1F3B5, 0x1F3C6, 0x1F4A1,
    0x1F4BB, 0x1F4F1, 0x1F4DA, 0x1F436, 0x1F431, 0x1F98A, 0x1F984, 0x1F41D,
    0x1F33B, 0x1F339, 0x1F340, 0x1F49C, 0x1F499, 0x1F49A, 0x1F9E1, 0x1F5A4)]

# ---------------------------------------------------------------------------
# Text streams: each yields str chunks forever, deterministically.

CHUNK_SENTENCES = 2000


def _finish(words, rng, end='.!?', weights=(8, 1, 1)):
    """Capitalise, sprinkle commas, end a sentence."""
    n = len(words)
    if n > 6:
        for _ in range(rng.randrange(3)):
            i = rng.randrange(2, n - 2)
            if not words[i].endswith(','):
                words[i] = words[i] + ','
    w0 = words[0]
    words[0] = w0[:1].upper() + w0[1:]
    return ' '.join(words) + rng.choices(end, weights)[0]


def _paragraphs(rng, sentence):
    out = []
    for _ in range(CHUNK_SENTENCES):
        out.append(sentence())
        out.append('\n\n' if rng.random() < 0.18 else ' ')
    return ''.join(out)


def stream_ascii(seed=1):
    rng = random.Random(seed)

    def sentence():
        words = rng.choices(EN, k=rng.randrange(5, 19))
        if rng.random() < 0.05:
            words.insert(rng.randrange(len(words)), str(rng.randrange(2, 2000)))
        s = _finish(words, rng)
        if rng.random() < 0.08:
            s = '"' + s + '"'
        return s

    while True:
        yield _paragraphs(rng, sentence)


def stream_gf(seed=2):
    """German and French paragraphs in turn; ~4% non-ASCII letters."""
    rng = random.Random(seed)
    lang = ['de']

    def price():
        return '%d,%02d €' % (rng.randrange(1, 500), rng.randrange(100))

    def sentence():
        n = rng.randrange(5, 19)
        if lang[0] == 'de':
            plain, accent, p = DE_PLAIN, DE_ACCENT, 0.23
        else:
            plain, accent, p = FR_PLAIN, FR_ACCENT, 0.19
        words = []
        for _ in range(n):
            r = rng.random()
            if r < p:
                words.append(rng.choice(accent))
            elif lang[0] == 'fr' and r < p + 0.05:
                words.append(rng.choice(FR_ELIDED))
            else:
                words.append(rng.choice(plain))
        if rng.random() < 0.06:
            words.insert(rng.randrange(len(words)), price())
        s = _finish(words, rng)
        if rng.random() < 0.10:
            s = ('„' + s + '“') if lang[0] == 'de' else ('“' + s + '”')
        if rng.random() < 0.15:
            lang[0] = 'fr' if lang[0] == 'de' else 'de'
        return s

    while True:
        yield _paragraphs(rng, sentence)


# gf-latin1.txt: the same text with its non-Latin-1 characters replaced.
LATIN1_MAP = str.maketrans({'€': '£', '„': '«', '“': '»', '”': '»',
                            '’': "'", '‘': "'"})


def stream_gf_latin1(seed=2):
    for chunk in stream_gf(seed):
        yield chunk.translate(LATIN1_MAP)


def stream_ru(seed=3):
    rng = random.Random(seed)

    def sentence():
        words = rng.choices(RU, k=rng.randrange(5, 17))
        if rng.random() < 0.04:
            words.insert(rng.randrange(len(words)), str(rng.randrange(2, 2000)))
        s = _finish(words, rng)
        if rng.random() < 0.06:
            s = '«' + s + '»'
        return s

    while True:
        yield _paragraphs(rng, sentence)


def stream_zh(seed=4):
    rng = random.Random(seed)
    chars = ZH_CHARS

    def clause():
        return ''.join(rng.choices(chars, k=rng.randrange(4, 16)))

    def sentence():
        parts = [clause() for _ in range(rng.randrange(1, 4))]
        if rng.random() < 0.05:
            parts[0] = '%d年' % rng.randrange(1900, 2030) + parts[0]
        s = '，'.join(parts) + rng.choices('。！？', (8, 1, 1))[0]
        if rng.random() < 0.05:
            s = '“' + s + '”'
        return s

    while True:
        out = []
        for _ in range(CHUNK_SENTENCES):
            out.append(sentence())
            if rng.random() < 0.15:
                out.append('\n')
        yield ''.join(out)


def stream_emoji(seed=5):
    """English prose in which ~10% of the characters are emoji."""
    rng = random.Random(seed)

    def sentence():
        words = rng.choices(EN, k=rng.randrange(5, 19))
        out = []
        for w in words:
            out.append(w)
            if rng.random() < 0.42:
                out.append(''.join(rng.choices(EMOJI, k=rng.choice((1, 1, 1, 2, 3)))))
        return _finish(out, rng)

    while True:
        yield _paragraphs(rng, sentence)


# ---------------------------------------------------------------------------
# Writing files.

def write_stream(stream, sinks, size):
    """sinks: list of (path, encoding).  Fill each with size bytes (a
    prefix of the stream's text, cut at a character boundary)."""
    tmp = [p + '.tmp' for p, _ in sinks]
    files = [open(t, 'wb') for t in tmp]
    left = [size] * len(sinks)
    for chunk in stream:
        for i, (_, enc) in enumerate(sinks):
            if left[i] <= 0:
                continue
            b = chunk.encode(enc)
            if len(b) > left[i]:
                b = b[:left[i]].decode(enc, 'ignore').encode(enc)
                left[i] = 0
            else:
                left[i] -= len(b)
            files[i].write(b)
        if all(n <= 0 for n in left):
            break
    for f, t, (p, _) in zip(files, tmp, sinks):
        f.close()
        os.replace(t, p)


# Invalid UTF-8 inserted into gf-invalid.txt, one kind at a time, at
# character boundaries: lone continuation bytes, bytes that never occur in
# UTF-8, truncated sequences, surrogates, overlongs, beyond U+10FFFF.
BAD = [b'\x80', b'\x9f', b'\xbf', b'\xa9', b'\xc0', b'\xc1', b'\xf5', b'\xff',
       b'\xfe', b'\xc3', b'\xe2\x82', b'\xf0\x9f\x98', b'\xed\xa0\x80',
       b'\xed\xbf\xbf', b'\xc0\xaf', b'\xe0\x80\xaf', b'\xf4\x90\x80\x80',
       b'\xe9', b'\xe4']
BAD_RATE = 0.005


def write_invalid(src, dst, size, seed=6):
    rng = random.Random(seed)
    avg = sum(map(len, BAD)) / len(BAD)
    left = size
    with open(src, 'rb') as f, open(dst + '.tmp', 'wb') as out:
        while left > 0:
            block = f.read(1 << 20)
            if not block:
                break
            n = max(1, round(len(block) * BAD_RATE / avg))
            pos = sorted(rng.sample(range(len(block)), n))
            parts, last = [], 0
            for p in pos:
                while p < len(block) and (block[p] & 0xC0) == 0x80:
                    p += 1          # move to a character boundary
                if p < last:
                    continue
                parts.append(block[last:p])
                parts.append(rng.choice(BAD))
                last = p
            parts.append(block[last:])
            data = b''.join(parts)
            if len(data) > left:
                # cut at a boundary of the original text
                cut = left
                while cut > 0 and (data[cut] & 0xC0) == 0x80:
                    cut -= 1
                data = data[:cut]
            out.write(data)
            left -= len(data)
            if len(data) == 0:
                break
    os.replace(dst + '.tmp', dst)


def write_slice(path, encoding):
    """path.slice: the first 4 MiB of path, cut at a character boundary."""
    with open(path, 'rb') as f:
        b = f.read(SLICE + 1)
    if len(b) > SLICE:
        cut = SLICE
        if encoding == 'utf-8':
            while cut > 0 and (b[cut] & 0xC0) == 0x80:
                cut -= 1
        elif encoding == 'utf-16-le':
            if 0xD8 <= b[cut - 1] <= 0xDB:   # a high surrogate last
                cut -= 2
        b = b[:cut]
    with open(path + '.slice', 'wb') as f:
        f.write(b)


FILES = {
    # name: encoding of the file (for slicing)
    'ascii.txt': 'utf-8', 'gf.txt': 'utf-8', 'gf-latin1.txt': 'utf-8',
    'gf.cp1252': 'cp1252', 'gf-invalid.txt': 'utf-8', 'ru.txt': 'utf-8',
    'zh.txt': 'utf-8', 'emoji.txt': 'utf-8', 'ascii.utf16le': 'utf-16-le',
    'zh.utf16le': 'utf-16-le',
}


def generate(cache, size, log=lambda s: None):
    """Make the corpus in cache (a directory for this size) unless there."""
    stamp = os.path.join(cache, 'STAMP')
    want = 'corpus v%d size %d\n' % (VERSION, size)
    try:
        with open(stamp) as f:
            if f.read() == want and all(
                    os.path.exists(os.path.join(cache, n)) and
                    os.path.exists(os.path.join(cache, n + '.slice'))
                    for n in FILES):
                return
    except OSError:
        pass
    os.makedirs(cache, exist_ok=True)
    j = lambda n: os.path.join(cache, n)
    log('generating the corpus (%d MiB per file) in %s ...' % (size >> 20, cache))
    write_stream(stream_ascii(), [(j('ascii.txt'), 'utf-8'),
                                  (j('ascii.utf16le'), 'utf-16-le')], size)
    write_stream(stream_gf(), [(j('gf.txt'), 'utf-8'),
                               (j('gf.cp1252'), 'cp1252')], size)
    write_stream(stream_gf_latin1(), [(j('gf-latin1.txt'), 'utf-8')], size)
    write_invalid(j('gf.txt'), j('gf-invalid.txt'), size)
    write_stream(stream_ru(), [(j('ru.txt'), 'utf-8')], size)
    write_stream(stream_zh(), [(j('zh.txt'), 'utf-8'),
                               (j('zh.utf16le'), 'utf-16-le')], size)
    write_stream(stream_emoji(), [(j('emoji.txt'), 'utf-8')], size)
    for n, enc in FILES.items():
        write_slice(j(n), enc)
    with open(stamp, 'w') as f:
        f.write(want)


def stats(path, encoding):
    """Share of non-ASCII characters, of emoji, and of invalid bytes."""
    with open(path, 'rb') as f:
        b = f.read(SLICE)
    s = b.decode(encoding, 'surrogateescape')
    n = len(s) or 1
    non_ascii = sum(1 for c in s if ord(c) > 0x7F and not 0xDC80 <= ord(c) <= 0xDCFF)
    astral = sum(1 for c in s if ord(c) > 0xFFFF)
    bad = sum(1 for c in s if 0xDC80 <= ord(c) <= 0xDCFF)
    return non_ascii / n, astral / n, bad / max(1, len(b))
