/**
 * How the `mockrouter` commands lay out `--help` (`serve.ts`, `record-command.ts`, `verify-command.ts`): every line
 * within the terminal's width and at most {@link MAX_HELP_WIDTH} characters. commander wraps the usage, the
 * description and each flag's text at the width it is given (`configureOutput`'s `getOutHelpWidth`); the text added
 * after the flags (`addHelpText`) it prints as it is, so {@link wrappedHelpText} wraps that with commander's own
 * `Help.boxWrap`.
 *
 * @module
 */
import { Help, type AddHelpTextContext, type Command } from 'commander';

/** The widest help line, in characters, however wide the terminal. */
export const MAX_HELP_WIDTH = 100;

/**
 * The width help is wrapped at, in characters: the terminal's columns when `stream` is one, else `COLUMNS` of the
 * environment (a whole number), else {@link MAX_HELP_WIDTH}; never more than {@link MAX_HELP_WIDTH}.
 *
 * @param stream where the help goes: stdout, or stderr for help shown after a usage error.
 */
export function helpWidth(stream: NodeJS.WriteStream = process.stdout, env: NodeJS.ProcessEnv = process.env): number {
  const columns = stream.isTTY ? stream.columns : /^\d+$/.test(env.COLUMNS ?? '') ? Number(env.COLUMNS) : undefined;
  return columns !== undefined && columns > 0 ? Math.min(columns, MAX_HELP_WIDTH) : MAX_HELP_WIDTH;
}

/**
 * `text` with each line longer than `width` wrapped at spaces (commander's `Help.boxWrap`; a single word longer than
 * the line stays whole). Each line of `text` is a paragraph, a list item or a table row; its continuation lines are
 * indented as far as its own leading spaces, past the `- ` of a list item, or past the term of a table row
 * (`  models.json        model records ...`: a term, then two spaces or more), so they line up under its text.
 */
export function wrapHelpText(text: string, width: number): string {
  const help = new Help();
  return text
    .split('\n')
    .map((line) => {
      if (line.length <= width) return line;
      const indent = /^ *(?:- |\S+ {2,})?/.exec(line)![0].length;
      const wrapped = help.boxWrap(line.slice(indent), width - indent);
      return line.slice(0, indent) + wrapped.replaceAll('\n', `\n${' '.repeat(indent)}`);
    })
    .join('\n');
}

/**
 * An `addHelpText` argument: `text` (or what `text()` returns when the help is shown) wrapped at the width of the
 * stream the help goes to ({@link helpWidth}).
 */
export function wrappedHelpText(text: string | (() => string)): (context: AddHelpTextContext) => string {
  return ({ error }) => wrapHelpText(typeof text === 'string' ? text : text(), helpWidth(error ? process.stderr : process.stdout));
}

/**
 * `command` with the help layout of every `mockrouter` command: wrapped at {@link helpWidth} on stdout, and on stderr
 * for help after a usage error; `-h, --help` described as "show this help".
 */
export function withHelpLayout(command: Command): Command {
  return command
    .helpOption('-h, --help', 'show this help')
    .configureOutput({ getOutHelpWidth: () => helpWidth(process.stdout), getErrHelpWidth: () => helpWidth(process.stderr) });
}
