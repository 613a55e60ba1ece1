/**
 * The order vitest starts test files in when it has no durations of its own yet (a fresh clone, CI): the files
 * `vitest.config.ts` lists as the slowest (`SLOWEST_FILES`) first, in the order listed, then the others in vitest's
 * order (the larger file first). When vitest's results cache (`node_modules/.vite/vitest`, written after each run)
 * holds a duration for every listed file of the run, its own order stands: the longest file of the last run first.
 * Either way the isolated project's files come before the shared project's, as vitest sorts them (`BaseSequencer` of
 * `vitest/node`). A configured sequencer replaces vitest's `--sequence.shuffle` of files (tests within a file are
 * still shuffled by it).
 *
 * Starting the long files first keeps the two workers busy to the end, instead of one running a long file alone
 * while the other has finished.
 */
import { relative, sep } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** A sequencer that puts `slowest` (paths from the root, longest first) first when vitest knows no durations. */
export function slowestFirst(slowest: readonly string[]): typeof BaseSequencer {
  return class SlowestFirst extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files);
      const root = this.ctx.config.root;
      // As vitest keys its cache: the path from the root, with forward slashes.
      const path = (file: TestSpecification) => relative(root, file.moduleId).split(sep).join('/');
      const rank = (file: TestSpecification) => {
        const index = slowest.indexOf(path(file));
        return index === -1 ? slowest.length : index;
      };
      const listed = sorted.filter((file) => rank(file) < slowest.length);
      if (listed.every((file) => this.ctx.cache.getFileTestResults(`${file.project.name}:${path(file)}`) !== undefined)) return sorted;
      // Each project's files in a run of their own, as vitest sorted them; within it, by rank (a stable sort).
      const groups = new Map<string, TestSpecification[]>();
      for (const file of sorted) {
        const group = groups.get(file.project.name);
        if (group) group.push(file);
        else groups.set(file.project.name, [file]);
      }
      return [...groups.values()].flatMap((group) => group.sort((a, b) => rank(a) - rank(b)));
    }
  };
}
