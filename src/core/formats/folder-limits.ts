/**
 * The limits of the files and folders mockrouter reads (`--fixtures`, `--keys`, `--scenario`, `--scenarios`) and of
 * the folder `mockrouter record` writes, in one definition: the recorder checks each record against them before it
 * keeps it, so that whatever it wrote, `--fixtures` loads (`docs/recording.md`, "Limits").
 *
 * @module
 */

/** The limits; each a whole number. */
export const FOLDER_LIMITS = {
  /** Bytes of one JSON or YAML file (`models.json`, `generations.json`, `audio/index.json`, `transcripts.json`, a keys or scenario file): 10 MiB. */
  fileBytes: 10 * 1024 * 1024,
  /** Deepest nesting of arrays and objects in one such file (a model record nests 4 deep; the API's request bodies 64). */
  depth: 64,
  /** Model records in `models.json`. */
  models: 20_000,
  /** Generation records in `generations.json`. */
  generations: 20_000,
  /** Speech recordings in `audio/index.json`. */
  recordings: 10_000,
  /** Bytes of one recorded audio file: 64 MiB (over an hour of 24 kHz PCM). */
  audioFileBytes: 64 * 1024 * 1024,
  /** Bytes of the recorded audio files together (they are kept in memory): 256 MiB. */
  audioTotalBytes: 256 * 1024 * 1024,
  /** Transcripts in `transcripts.json`. */
  transcripts: 10_000,
  /** Bytes of one clip a `transcripts.json` entry names: 64 MiB, as a recorded audio file. */
  clipBytes: 64 * 1024 * 1024,
  /** Bytes of the clips of one `transcripts.json` together (each is read and hashed at start-up): 256 MiB. */
  clipTotalBytes: 256 * 1024 * 1024,
} as const;

/** The name of one of {@link FOLDER_LIMITS}. */
export type FolderLimit = keyof typeof FOLDER_LIMITS;
