/**
 * The speech model the tests ask for unless they test another: OpenAI's dated gpt-4o-mini-tts, as the committed
 * catalog lists it (`fixtures/models.json`: MP3 and PCM, `speed` 0.25 to 4, `instructions`, up to 4,096
 * characters). It has no imports, so a browser page bundled by a test and a child-process probe can use it too.
 *
 * @module
 */

/** The id of the speech model the tests use: `openai/gpt-4o-mini-tts-2025-12-15`. */
export const TTS = 'openai/gpt-4o-mini-tts-2025-12-15';

/**
 * The id of the transcription model the tests use: `openai/whisper-1` (`fixtures/models.json`: billed by the second,
 * `verbose_json`, no diarization, no key terms, no audio by URL).
 */
export const STT = 'openai/whisper-1';
