"""Voice activity on the real corpus's tune split only: missed speech and false alarm (10 ms frames, 0.25 s collar
around reference boundaries) of Silero VAD as speakers.py runs it, at several thresholds, for the 8 kHz codec2 voices
and for the 16 kHz ones separately. Measurement only (speakers.py is not changed by it); figures: bench/README.md.

    <engine python> bench/speech-corpus/vad-thresholds.py ~/.cache/paycore/speech-corpus-<hash>/corpus.json 0.5,0.35,0.25

(the engine's Python: ~/.cache/paycore/transcription-<hash>/bin/python; the corpus: npx tsx bench/speech-corpus/bench.ts
builds it.)"""
import json, sys, wave
import numpy as np
from faster_whisper.vad import VadOptions, get_speech_timestamps

corpus = json.load(open(sys.argv[1]))
thresholds = [float(x) for x in sys.argv[2].split(',')]
def frames(stretches, n):
    m = np.zeros(n, bool)
    for s in stretches:
        m[int(round(s[0] * 100)):int(round(s[1] * 100))] = True
    return m
tot = {}
for c in corpus:
    if c['split'] != 'tune':
        continue
    with wave.open(c['path']) as w:
        a = np.frombuffer(w.readframes(w.getnframes()), np.int16).astype(np.float32) / 32768
    n = int(len(a) / 160) + 1
    collar = np.zeros(n, bool)
    for r in c['reference']:
        for t in (r['start'], r['end']):
            collar[max(0, int((t - 0.25) * 100)):int((t + 0.25) * 100)] = True
    for th in thresholds:
        o = VadOptions(threshold=th, min_silence_duration_ms=200, speech_pad_ms=50, min_speech_duration_ms=250)
        hyp = frames([(t['start'] / 16000, t['end'] / 16000) for t in get_speech_timestamps(a, o, sampling_rate=16000)], n)
        anyref = frames([(r['start'], r['end']) for r in c['reference']], n)
        for kind in ('8k', '16k'):
            ref = frames([(r['start'], r['end']) for r in c['reference'] if r['speaker'].startswith('c2-') == (kind == '8k')], n)
            other = anyref & ~ref
            k = tot.setdefault((th, kind), [0, 0, 0])
            k[0] += int((ref & ~collar).sum())
            k[1] += int((ref & ~hyp & ~collar).sum())
        k = tot.setdefault((th, 'fa'), [0, 0, 0])
        k[2] += int((hyp & ~anyref & ~collar).sum())
        k[0] += int((anyref & ~collar).sum())
for th in thresholds:
    s8, s16, fa = tot[(th, '8k')], tot[(th, '16k')], tot[(th, 'fa')]
    print(f"threshold {th:.2f}: missed 8 kHz voices {s8[1]/max(1,s8[0]):.3f} of {s8[0]/100:.0f} s, 16 kHz voices {s16[1]/max(1,s16[0]):.3f} of {s16[0]/100:.0f} s, false alarm {fa[2]/fa[0]:.3f} of all speech")
