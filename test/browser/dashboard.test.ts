/**
 * The dashboard (`GET /__mock/ui`, docs/admin-api.md "Dashboard") in headless Chromium against the standalone server: the
 * page loads without a console error; a request made from outside shows as a row within a second, by the event
 * stream, and by polling when the stream is down; a row opens by keyboard and its speech answer plays at the
 * journal's duration; the scenario picker starts at "none" when there is no default, shows a built-in's file
 * relative to the package, and sets the default the next request shows in `X-Mock-Applied`; advancing the clock on
 * the page makes a pending generation record readable and "Set to" follows it, in 24-hour UTC, ticking with a
 * running clock; cut and reset answers show as such, a cut one's waveform marked where it stopped; a speech row
 * says what the request asked for, a request without a key has the session `no-key`, and cells are whole where
 * there is room; the detail opens beside the journal, whose rows stay visible and take clicks; the login form shows
 * with no 401 in the console and takes the admin token. Screenshots at 1280×800, 1920×1080 and 390 px wide, light
 * and dark, go to a temporary folder (or `DASHBOARD_SCREENSHOTS`), printed at the end; `docs/dashboard.png` is
 * `wide-light.png`. The dashboards of the default locale open one after another in one page (its size and color
 * scheme set for each), as a user reloads it; another locale or time zone, the stream blocked, or the login, in a
 * page of their own.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/core/journal/journal.js';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { describeWithBrowser, launchBrowser, watchPage, type PageWatch } from '../support/browser.js';
import { STT, TTS } from '../support/speech-model.js';
import { postSpeech } from '../support/speech-request.js';
import { wavOf } from '../support/wav.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const START = '2026-01-01T00:00:00Z';
const TIMEOUT = 60_000;

describeWithBrowser('dashboard', () => {
  let server: RunningServer;
  let browser: Browser;
  const pages: Page[] = [];

  beforeAll(async () => {
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'bundle-ui.mjs')], { cwd: ROOT, stdio: 'pipe' });
    server = await startServer({ port: 0, seed: 3, clock: START, generationDelayMs: 60_000 });
    browser = await launchBrowser();
  }, TIMEOUT);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  /**
   * The page the dashboards of the default locale and time zone open in, one after another: a navigation there costs
   * Chromium less than a new page (no new renderer process), and leaves nothing of the page before (the dashboard
   * keeps no storage). Its `watch` collects the current dashboard's problems only.
   */
  let reused: { page: Page; watch?: PageWatch } | undefined;

  /** Stops the reused page's dashboard (its watch first, so what it logs as it unloads is no one's problem). */
  async function leaveReused(): Promise<void> {
    if (!reused) return;
    reused.watch?.stop();
    try {
      await reused.page.unrouteAll();
      await reused.page.goto('about:blank');
    } catch {
      // A page a test left crashed or stuck: the next dashboard gets a new one.
      await reused.page.close().catch(() => undefined);
      reused = undefined;
    }
  }

  beforeEach(async () => {
    while (pages.length > 0) await pages.pop()!.close();
    await leaveReused();
    await fetch(`${server.url}/__mock/reset`, { method: 'POST' });
  });

  /**
   * The dashboard of `origin` once its event stream is open (or `connection` says otherwise): in the reused page, or
   * in a new one for another locale or time zone.
   */
  async function dashboard(options: { width?: number; height?: number; dark?: boolean; connection?: string; origin?: string; locale?: string; timezoneId?: string } = {}) {
    const viewport = { width: options.width ?? 1280, height: options.height ?? 800 };
    const colorScheme = options.dark ? ('dark' as const) : ('light' as const);
    let page: Page;
    if (options.locale === undefined && options.timezoneId === undefined) {
      await leaveReused();
      reused ??= { page: await browser.newPage() };
      page = reused.page;
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme });
    } else {
      page = await browser.newPage({ viewport, colorScheme, ...(options.locale === undefined ? {} : { locale: options.locale }), ...(options.timezoneId === undefined ? {} : { timezoneId: options.timezoneId }) });
      pages.push(page);
    }
    const problems = watchPage(page);
    if (page === reused?.page) reused.watch = problems;
    await page.goto(`${options.origin ?? server.url}/__mock/ui`);
    await page.getByTestId('connection').filter({ hasText: options.connection ?? 'live' }).waitFor({ timeout: 10_000 });
    return { page, problems };
  }

  const key = { Authorization: 'Bearer sk-dashboard', 'Content-Type': 'application/json' };

  /** A speech call from outside the page; the body is read to its end (or its cut). */
  async function speech(format: 'pcm' | 'mp3', headers: Record<string, string> = {}, input = 'The dashboard shows this answer.') {
    const response = await postSpeech(server.baseUrl, { model: TTS, input, voice: 'alloy', response_format: format }, { ...key, ...headers });
    await response.arrayBuffer().catch(() => undefined);
    return response;
  }

  async function entry(seq: number): Promise<JournalEntry> {
    return (await (await fetch(`${server.url}/__mock/requests/${seq}`)).json()) as JournalEntry;
  }

  const lastSeq = () => server.gateway.journal.last()!.seq;
  const row = (page: Page, seq: number) => page.locator(`tr[data-seq="${seq}"]`);

  it('loads with no console error, shows a speech call made outside within a second, and plays it at the journal duration', async () => {
    const { page, problems } = await dashboard();
    await speech('pcm');
    const seq = lastSeq();
    const started = performance.now();
    await row(page, seq).waitFor({ timeout: 1000 });
    const appeared = performance.now() - started;
    expect(appeared).toBeLessThan(1000);
    await expect.poll(() => row(page, seq).locator('.c-status').textContent()).toBe('200');

    // By keyboard: the row takes focus, Enter opens it, Escape closes it and gives the focus back.
    await row(page, seq).focus();
    await page.keyboard.press('Enter');
    await page.locator('#detail-title').filter({ hasText: `#${seq}` }).waitFor();
    const journaled = await entry(seq);
    expect(journaled.audio?.format).toBe('pcm');
    const player = page.locator('.player audio');
    await player.waitFor();
    await page.waitForFunction(() => ((document.querySelector('.player audio') as HTMLAudioElement | null)?.duration ?? 0) > 0);
    const duration = await player.evaluate((audio: HTMLAudioElement) => audio.duration);
    expect(Math.abs(duration * 1000 - journaled.audio!.duration_ms!)).toBeLessThan(1);
    const decoded = Number(await page.locator('.player').getAttribute('data-decoded-duration'));
    expect(Math.abs(decoded * 1000 - journaled.audio!.duration_ms!)).toBeLessThan(1);
    await expect.poll(() => page.getByTestId('audio-duration-ms').textContent()).toBe(`${(journaled.audio!.duration_ms! / 1000).toFixed(2)} s`);
    // It plays (the Enter above was the user's gesture).
    await player.evaluate((audio: HTMLAudioElement) => audio.play());
    await page.waitForFunction(() => (document.querySelector('.player audio') as HTMLAudioElement).currentTime > 0.1, undefined, { timeout: 5000 });
    await page.keyboard.press('Escape');
    await page.locator('.detail').waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.seq)).toBe(String(seq));
    expect(problems.take()).toEqual([]);
  }, TIMEOUT);

  it("shows a speech request's model, its voices and formats, and says when the request's voice is not among them", async () => {
    const { page, problems } = await dashboard();
    const rejected = await postSpeech(server.baseUrl, { model: 'deepgram/aura-2', input: 'Hi.', voice: 'alloy' }, key);
    expect(rejected.status).toBe(400);
    await rejected.arrayBuffer();
    const seq = lastSeq();
    await row(page, seq).click();
    const voices = page.getByTestId('model-voices');
    await voices.waitFor();
    expect(await voices.textContent()).toMatch(/^The request's voice "alloy" is not one of these:aura-2-thalia-en, /);
    expect(await page.getByTestId('model-formats').textContent()).toBe('mp3, pcm');
    await page.keyboard.press('Escape');
    await speech('mp3');
    await row(page, lastSeq()).click();
    await page.locator('[data-testid="model-voices"] mark').filter({ hasText: 'alloy' }).waitFor();
    expect(await page.locator('[data-testid="model-formats"] mark').textContent()).toBe('mp3');
    // Console lines of the 400 the page shows nothing of: the page itself made no request that failed.
    expect(problems.take()).toEqual([]);
  });

  it('shows a transcription: its transcript, where it came from, and the audio it heard, played at its length', async () => {
    const { page, problems } = await dashboard();
    const input = 'The dashboard hears this back.';
    const pcm = new Uint8Array(await (await postSpeech(server.baseUrl, { model: TTS, input, voice: 'alloy', response_format: 'pcm' }, key)).arrayBuffer());
    const wav = wavOf(pcm);
    const form = new FormData();
    form.append('model', STT);
    form.append('file', new Blob([wav], { type: 'audio/wav' }), 'heard.wav');
    const heard = await fetch(`${server.baseUrl}/audio/transcriptions`, { method: 'POST', headers: { Authorization: key.Authorization }, body: form });
    expect(heard.status).toBe(200);
    expect(((await heard.json()) as { text: string }).text).toBe(input);
    const seq = lastSeq();
    await row(page, seq).click();
    await expect.poll(() => page.getByTestId('transcript-text').textContent()).toBe(input);
    expect(await page.getByTestId('transcript-source').textContent()).toMatch(/^audio this simulator said/);
    await page.waitForFunction(() => ((document.querySelector('.player audio') as HTMLAudioElement | null)?.duration ?? 0) > 0);
    const duration = await page.locator('.player audio').evaluate((audio: HTMLAudioElement) => audio.duration);
    expect(Math.abs(duration - pcm.byteLength / 48_000)).toBeLessThan(0.001);
    expect(await row(page, seq).locator('.c-ask').textContent()).toContain(input);
    expect(problems.take()).toEqual([]);
  });

  it('decodes an MP3 answer for its waveform at the journal duration (within the encoder padding)', async () => {
    const { page, problems } = await dashboard();
    await speech('mp3', {}, 'An MP3 answer, decoded by Web Audio.');
    const seq = lastSeq();
    await row(page, seq).click();
    await page.locator('.player audio').waitFor();
    const journaled = await entry(seq);
    expect(journaled.audio?.content_type).toBe('audio/mpeg');
    const decoded = Number(await page.locator('.player').getAttribute('data-decoded-duration'));
    // MP3 frames are 1152 samples (48 ms at 24 kHz); the encoder pads the last one and adds its delay.
    expect(decoded * 1000).toBeGreaterThanOrEqual(journaled.audio!.duration_ms! - 1);
    expect(decoded * 1000 - journaled.audio!.duration_ms!).toBeLessThan(150);
    expect(await page.locator('canvas.waveform').count()).toBe(1);
    expect(problems.take()).toEqual([]);
  }, TIMEOUT);

  it('sets the default scenario that the next request shows in X-Mock-Applied, and clears it', async () => {
    const { page, problems } = await dashboard();
    // No default: the picker says "none", not the first scenario of the list.
    const picked = () => page.locator('#scenario-select option:checked').textContent();
    await expect.poll(picked).toBe('none (default)');
    expect(await page.locator('#scenario-select').inputValue()).toBe('');
    await page.selectOption('#scenario-select', 'provider-overloaded');
    await page.getByText('529 "Provider returned error"', { exact: false }).first().waitFor();
    // A built-in's file, relative to the package: no absolute path of this machine.
    const detail = await page.locator('.scenario-detail').textContent();
    expect(detail).toContain('scenarios/provider-overloaded.yaml · 1 rule');
    expect(await page.locator('body').textContent()).not.toContain(ROOT);
    await page.getByRole('button', { name: 'Set as default' }).click();
    await page.getByTestId('default-scenario').filter({ hasText: 'provider-overloaded' }).waitFor();
    const overloaded = await speech('pcm');
    expect(overloaded.status).toBe(529);
    expect(overloaded.headers.get('x-mock-applied')).toContain('provider-overloaded');
    const seq = lastSeq();
    await row(page, seq).locator('.c-scenario').filter({ hasText: 'provider-overloaded' }).waitFor();
    // Its detail shows the error envelope.
    await row(page, seq).click();
    await page.locator('.error-message').filter({ hasText: '529' }).waitFor();
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Clear default' }).click();
    await page.getByTestId('default-scenario').filter({ hasText: 'none' }).waitFor();
    await page.selectOption('#scenario-select', '');
    expect(await picked()).toBe('none (default)');
    const normal = await speech('pcm');
    expect(normal.status).toBe(200);
    expect(normal.headers.get('x-mock-applied')).toBeNull();
    expect(problems.take()).toEqual([]);
  }, TIMEOUT);

  it('follows a default scenario set elsewhere, one set by its definition too, and drops its own stale status line', async () => {
    const { page, problems } = await dashboard();
    const picked = () => page.locator('#scenario-select option:checked').textContent();
    const putDefault = (body: unknown) =>
      fetch(`${server.url}/__mock/scenario`, { method: 'PUT', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
    await expect.poll(picked).toBe('none (default)');
    // Set here: the page's own status line.
    await page.selectOption('#scenario-select', 'slow-audio');
    await page.getByRole('button', { name: 'Set as default' }).click();
    await page.locator('.card .status').filter({ hasText: 'Default scenario: slow-audio.' }).waitFor();
    // Set elsewhere: the picker moves to it, with its description, and the line about slow-audio goes.
    expect((await putDefault({ name: 'rate-limited' })).status).toBe(200);
    await expect.poll(picked).toBe('rate-limited (default)');
    await page.locator('.scenario-detail').filter({ hasText: '429' }).waitFor();
    await expect.poll(() => page.locator('.card .status').first().textContent()).toBe('');
    // Set by its definition: not a loaded scenario, so an option of its own, with its rules.
    const definition = { name: 'mine', description: 'Every request gets 503.', rules: [{ name: 'down', error: { status: 503 } }] };
    expect((await putDefault({ scenario: definition })).status).toBe(200);
    await expect.poll(picked).toBe('mine (default, set by its definition)');
    await page.locator('.scenario-detail').filter({ hasText: 'Every request gets 503.' }).filter({ hasText: 'set by its definition' }).waitFor();
    await page.locator('.scenario-detail .rules').filter({ hasText: 'down' }).waitFor();
    // Cleared elsewhere: back to none.
    expect((await putDefault({ name: null })).status).toBe(200);
    await expect.poll(picked).toBe('none (default)');
    expect(problems.take()).toEqual([]);
  }, TIMEOUT);

  it('advances the clock so that a pending generation record becomes readable', async () => {
    const { page, problems } = await dashboard();
    const answer = await speech('pcm');
    const id = answer.headers.get('x-generation-id')!;
    const lookup = () => fetch(`${server.baseUrl}/generation?id=${encodeURIComponent(id)}`, { headers: key }).then(async (r) => (await r.arrayBuffer(), r.status));
    expect(await lookup()).toBe(404);
    const before = server.gateway.clock.now();
    await page.fill('#advance-amount', '60');
    await page.selectOption('#advance-unit', 's');
    await page.getByRole('button', { name: 'Advance' }).click();
    const expected = `${new Date(before + 60_000).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
    await page.getByTestId('clock-now').filter({ hasText: expected }).waitFor();
    expect(server.gateway.clock.now()).toBe(before + 60_000);
    expect(await lookup()).toBe(200);
    // "Set to" follows the clock, as 24-hour UTC: the clock's own text without " UTC".
    const setAt = () => page.inputValue('#set-at');
    await expect.poll(setAt).toBe(expected.replace(' UTC', ''));
    // Another client's move too.
    await fetch(`${server.url}/__mock/clock`, { method: 'POST', body: JSON.stringify({ advance_ms: 1_000 }), headers: { 'Content-Type': 'application/json' } });
    await expect.poll(setAt).toBe(new Date(before + 61_000).toISOString().slice(0, 19).replace('T', ' '));
    // A time typed in stays until the clock moves; then the field follows the clock again.
    await page.fill('#set-at', '2030-01-01 00:00:00');
    await page.locator('#advance-amount').focus();
    expect(await setAt()).toBe('2030-01-01 00:00:00');
    await fetch(`${server.url}/__mock/clock`, { method: 'POST', body: JSON.stringify({ advance_ms: 1_000 }), headers: { 'Content-Type': 'application/json' } });
    await expect.poll(setAt).toBe(new Date(before + 62_000).toISOString().slice(0, 19).replace('T', ' '));

    // Set to a time typed in.
    await page.fill('#set-at', '2026-02-03T04:05:06');
    await page.getByRole('button', { name: 'Set', exact: true }).click();
    await page.getByTestId('clock-now').filter({ hasText: '2026-02-03 04:05:06 UTC' }).waitFor();
    expect(server.gateway.clock.now()).toBe(Date.parse('2026-02-03T04:05:06Z'));
    await fetch(`${server.url}/__mock/clock`, { method: 'POST', body: JSON.stringify({ now: START }), headers: { 'Content-Type': 'application/json' } });
    expect(problems.take()).toEqual([]);
  }, TIMEOUT);

  it('shows "Set to" in 24-hour UTC in a 12-hour locale and another time zone, in step with a running clock', async () => {
    const running = await startServer({ port: 0 });
    try {
      const { page, problems } = await dashboard({ origin: running.url, locale: 'en-US', timezoneId: 'America/New_York' });
      await expect.poll(() => page.locator('.clock-now .pill').textContent()).toBe('running');
      /** The clock's text and the field's, read in one go (one render shows both). */
      const both = () => page.evaluate(() => [document.querySelector('[data-testid="clock-now"]')!.textContent!, (document.querySelector('#set-at') as HTMLInputElement).value]);
      const [clock, field] = await both();
      expect(field).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(`${field} UTC`).toBe(clock);
      // The server's clock is UTC: within a few seconds of the field (the page ticks once a second).
      expect(Math.abs(Date.parse(`${field!.replace(' ', 'T')}Z`) - running.gateway.clock.now())).toBeLessThan(5_000);
      // It ticks with the clock, and stays in step with it.
      await expect.poll(async () => (await both())[1], { timeout: 10_000 }).not.toBe(field);
      const [later, laterField] = await both();
      expect(`${laterField} UTC`).toBe(later);
      // The field stops ticking while it has the focus (the text does not change under the cursor).
      await page.locator('#set-at').focus();
      const shown = await page.inputValue('#set-at');
      await expect.poll(() => page.getByTestId('clock-now').textContent(), { timeout: 10_000 }).not.toBe(`${shown} UTC`);
      expect(await page.inputValue('#set-at')).toBe(shown);
      // A time typed in the form it shows sets the clock there (a running clock runs on from it), and the field
      // follows the clock again.
      const hourEarlier = Date.parse(`${shown.replace(' ', 'T')}Z`) - 3_600_000;
      const typed = new Date(hourEarlier).toISOString().slice(0, 19).replace('T', ' ');
      await page.fill('#set-at', typed);
      await page.getByRole('button', { name: 'Set', exact: true }).click();
      await page.locator('.card .status').filter({ hasText: `Set to ${new Date(hourEarlier).toISOString().slice(0, 19)}Z; the clock runs on from there.` }).waitFor();
      expect(running.gateway.clock.now()).toBeGreaterThanOrEqual(hourEarlier);
      expect(running.gateway.clock.now()).toBeLessThan(hourEarlier + 600_000);
      const [moved, movedField] = await both();
      expect(`${movedField} UTC`).toBe(moved);
      expect(Date.parse(`${movedField!.replace(' ', 'T')}Z`)).toBeLessThan(hourEarlier + 600_000);
      expect(problems.take()).toEqual([]);
    } finally {
      await running.close();
    }
  }, TIMEOUT);

  it("shows a speech request's model, voice, format and input, the session no-key of a request without a key, and whole cells where there is room", async () => {
    const { page, problems } = await dashboard({ width: 1920, height: 1080 });
    await speech('mp3', { 'X-Mock-Session': 'checkout-flow-integration-suite' }, 'Your order has shipped and will arrive on Tuesday.');
    const asked = lastSeq();
    await speech('pcm', { 'X-Mock-Scenario': 'provider-overloaded' }, 'Overloaded   on\npurpose.');
    const overloaded = lastSeq();
    const noKey = await fetch(`${server.baseUrl}/model/openai/gpt-4o`);
    expect(noKey.status).toBe(401);
    await noKey.arrayBuffer();
    const anonymous = lastSeq();
    await fetch(`${server.baseUrl}/models?output_modalities=speech&supported_parameters=voice`, { headers: key }).then((r) => r.arrayBuffer());
    const listed = lastSeq();
    await row(page, listed).waitFor();

    const cell = row(page, asked).locator('.c-path');
    expect(await cell.getAttribute('title')).toBe(`/api/v1/audio/speech\n${TTS} · alloy · mp3 · “Your order has shipped and will arrive on Tuesday.”`);
    expect(await cell.locator('.ask-model').textContent()).toBe(TTS);
    expect(await cell.locator('.ask-part').allTextContents()).toEqual(['alloy', 'mp3']);
    expect(await cell.locator('q.ask-input').textContent()).toBe('Your order has shipped and will arrive on Tuesday.');
    // A format not given reads as the answer's; the input's whitespace as single spaces.
    expect(await row(page, overloaded).locator('.c-path').getAttribute('title')).toBe(`/api/v1/audio/speech\n${TTS} · alloy · pcm · “Overloaded on purpose.”`);
    expect(await row(page, listed).locator('.c-path').textContent()).toBe('/api/v1/models?output_modalities=speech&supported_parameters=voice');

    // No key: the session says so (not one derived as if a key had been sent), here and in the journal.
    expect(await row(page, anonymous).locator('.c-session').textContent()).toBe('no-key');
    expect((await entry(anonymous)).session).toBe('no-key');
    expect(await row(page, asked).locator('.c-session').textContent()).toBe('checkout-flow-integration-suite');
    expect(await row(page, listed).locator('.c-session').textContent()).toMatch(/^key-[0-9a-f]{12}$/);

    // At 1920 px nothing is cut: every clipped cell shows its one line whole.
    const cut = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('tbody .clip')).filter((clip) => clip.scrollHeight > clip.clientHeight + 1).map((clip) => clip.textContent),
    );
    expect(cut).toEqual([]);
    expect(await row(page, overloaded).locator('.c-scenario').textContent()).toBe('provider-overloaded');
    expect(problems.take()).toEqual([]);
  }, TIMEOUT);

  for (const [width, height] of [
    [1280, 800],
    [1920, 1080],
  ] as const) {
    it(`opens the detail beside the journal at ${width}×${height}: the rows stay visible and a click on another selects it`, async () => {
      const { page, problems } = await dashboard({ width, height });
      const seqs: number[] = [];
      for (const scenario of ['rate-limited', 'provider-overloaded', undefined]) {
        await speech('pcm', scenario === undefined ? {} : { 'X-Mock-Scenario': scenario });
        seqs.push(lastSeq());
      }
      await row(page, seqs[2]!).waitFor();
      await row(page, seqs[2]!).click();
      await page.locator('#detail-title').filter({ hasText: `#${seqs[2]}` }).waitFor();
      const detail = (await page.locator('.detail').boundingBox())!;
      const journal = (await page.locator('.journal').boundingBox())!;
      expect(journal.x + journal.width).toBeLessThanOrEqual(detail.x + 1);
      // Each row's status and scenario, where the drawer used to be, are the row's own.
      for (const seq of seqs) {
        for (const column of ['.c-status', '.c-scenario']) {
          const box = (await row(page, seq).locator(column).boundingBox())!;
          expect(box.x + box.width).toBeLessThanOrEqual(detail.x + 1);
          const hit = await page.evaluate(([x, y]) => (document.elementFromPoint(x!, y!)?.closest('tr') as HTMLElement | null)?.dataset.seq, [box.x + box.width / 2, box.y + box.height / 2]);
          expect(hit).toBe(String(seq));
        }
      }
      // A click on another row while the detail is open selects it.
      await row(page, seqs[0]!).locator('.c-status').click();
      await page.locator('#detail-title').filter({ hasText: `#${seqs[0]}` }).waitFor();
      expect(await row(page, seqs[0]!).getAttribute('aria-current')).toBe('true');
      expect(await row(page, seqs[2]!).getAttribute('aria-current')).toBeNull();
      await row(page, seqs[1]!).locator('.c-scenario').click();
      await page.locator('#detail-title').filter({ hasText: `#${seqs[1]}` }).waitFor();
      expect(problems.take()).toEqual([]);
    }, TIMEOUT);
  }

  it('shows a cut body and a reset connection as such, filters them, and the reset button empties the journal', async () => {
    const { page, problems } = await dashboard();
    await speech('pcm');
    const ok = lastSeq();
    await speech('pcm', { 'X-Mock-Scenario': 'truncated-audio' });
    const cut = lastSeq();
    await postSpeech(server.baseUrl, '{}', { ...key, 'X-Mock-Scenario': 'connection-reset' }).catch(() => undefined);
    const reset = lastSeq();
    await expect.poll(() => row(page, cut).locator('.c-status').textContent()).toBe('200 cut');
    await expect.poll(() => row(page, reset).locator('.c-status').textContent()).toBe('reset');
    await expect.poll(() => row(page, ok).locator('.c-status').textContent()).toBe('200');

    // The cut answer's waveform marks where the client's bytes stopped: response_bytes of the whole answer.
    await row(page, cut).click();
    await page.locator('.player audio').waitFor();
    const whole = (await (await fetch(`${server.url}/__mock/requests/${cut}/audio`)).arrayBuffer()).byteLength;
    const cutEntry = await entry(cut);
    expect(cutEntry).toMatchObject({ body_end: 'cut' });
    const mark = page.getByTestId('cut-mark');
    const fraction = Number(await mark.getAttribute('data-fraction'));
    expect(fraction).toBeCloseTo(cutEntry.response_bytes! / whole, 9);
    expect(fraction).toBeCloseTo(0.5, 3);
    // Drawn there: the line's x is that fraction of the waveform's width.
    const wave = (await page.locator('canvas.waveform').boundingBox())!;
    const line = (await mark.boundingBox())!;
    expect(Math.abs(line.x - (wave.x + fraction * wave.width))).toBeLessThan(2);
    expect(await page.locator('canvas.waveform').getAttribute('aria-label')).toMatch(/, cut after \d+\.\d\d s$/);
    await page.keyboard.press('Escape');
    await row(page, ok).click();
    await page.locator('#detail-title').filter({ hasText: `#${ok}` }).waitFor();
    await page.locator('.player audio').waitFor();
    expect(await page.getByTestId('cut-mark').count()).toBe(0);
    await page.keyboard.press('Escape');

    await page.selectOption('#filter-status', 'broken');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
    await page.selectOption('#filter-status', '');
    await page.fill('#filter-text', 'connection-reset');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await page.fill('#filter-text', '');

    await page.getByRole('button', { name: 'Reset' }).click();
    await page.getByText('No requests yet.').waitFor();
    expect(server.gateway.journal.size).toBe(0);
    expect(problems.take()).toEqual([]);
  }, TIMEOUT);

  it('empties its journal when another client clears it (DELETE /__mock/requests), and shows what comes after', async () => {
    const { page, problems } = await dashboard();
    await speech('pcm');
    const before = lastSeq();
    await expect.poll(() => row(page, before).count()).toBe(1);
    expect((await fetch(`${server.url}/__mock/requests`, { method: 'DELETE' })).status).toBe(204);
    await page.getByText('No requests yet.').waitFor({ timeout: 5000 });
    await speech('pcm');
    const after = lastSeq();
    await expect.poll(() => row(page, after).count()).toBe(1);
    expect(await page.locator('tbody tr').count()).toBe(1);
    expect(problems.take()).toEqual([]);
  }, TIMEOUT);

  it('polls the journal when the event stream is down', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    pages.push(page);
    const problems = watchPage(page);
    await page.route('**/__mock/events', (route) => route.abort());
    await page.goto(`${server.url}/__mock/ui`);
    await page.getByTestId('connection').filter({ hasText: 'polling' }).waitFor();
    await speech('pcm');
    const seq = lastSeq();
    await row(page, seq).waitFor({ timeout: 5000 });
    // The aborted stream is the only complaint.
    expect(problems.take().filter((p) => !p.text.includes('/__mock/events') && !p.text.includes('ERR_FAILED'))).toEqual([]);
  }, TIMEOUT);

  it('starts over when the server is restarted on the same port', async () => {
    const first = await startServer({ port: 0 });
    const port = first.port;
    let second: RunningServer | undefined;
    try {
      const { page, problems } = await dashboard({ origin: first.url });
      for (let i = 0; i < 3; i++) await fetch(`${first.baseUrl}/model/openai/gpt-4o`, { headers: key }).then((r) => r.arrayBuffer());
      await row(page, 3).waitFor();
      await first.close();
      await page.getByTestId('connection').filter({ hasNotText: 'live' }).waitFor();
      second = await startServer({ port });
      await fetch(`${second.baseUrl}/generation?id=gen-after-restart`, { headers: key }).then((r) => r.arrayBuffer());
      await page.locator('tr[data-seq="1"] .c-path').filter({ hasText: 'gen-after-restart' }).waitFor({ timeout: 15_000 });
      await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
      await page.getByTestId('connection').filter({ hasText: 'live' }).waitFor();
      // While the server was down, the browser logged the failed requests; nothing else.
      expect(problems.take().filter((p) => !/ERR_CONNECTION_REFUSED|Failed to load resource/.test(p.text))).toEqual([]);
    } finally {
      await second?.close();
      await first.close().catch(() => undefined);
    }
  }, TIMEOUT);

  it('asks for the admin token with a login form, and works once signed in', async () => {
    const guarded = await startServer({ port: 0, adminToken: 'dashboard-token' });
    try {
      const page = await browser.newPage();
      pages.push(page);
      const problems = watchPage(page);
      await page.goto(`${guarded.url}/__mock/ui`);
      await page.locator('#login-token').waitFor();
      // The page asked GET /__mock/auth (200 either way) before anything else: no 401 in the console.
      expect(problems.take()).toEqual([]);
      await page.locator('#login-token').fill('not-the-token');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').filter({ hasText: 'not this server\'s admin token' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/__mock/ui');
      await page.locator('#login-token').fill('dashboard-token');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByTestId('connection').filter({ hasText: 'live' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/__mock/ui');
      await fetch(`${guarded.baseUrl}/model/openai/gpt-4o`, { headers: key });
      await page.locator('tbody tr').first().waitFor();
      // Not even the wrong token's way back to the form logged a 401.
      expect(problems.take()).toEqual([]);
    } finally {
      await guarded.close();
    }
  }, TIMEOUT);

  it('renders at 1280×800, 1920×1080 and 390 px wide, light and dark (screenshots)', async () => {
    const dir = process.env.DASHBOARD_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), 'mockrouter-dashboard-'));
    mkdirSync(dir, { recursive: true });
    // A journal with something of everything, a few seconds apart.
    const later = () => fetch(`${server.url}/__mock/clock`, { method: 'POST', body: JSON.stringify({ advance_ms: 1370 }), headers: { 'Content-Type': 'application/json' } });
    await speech('mp3', { 'X-Mock-Session': 'checkout-flow' }, 'Your order has shipped and will arrive on Tuesday.');
    await later();
    await fetch(`${server.baseUrl}/model/${TTS}`, { headers: key }).then((r) => r.arrayBuffer());
    await later();
    await speech('pcm', { 'X-Mock-Scenario': 'rate-limited' });
    await later();
    await speech('pcm', { 'X-Mock-Scenario': 'truncated-audio' });
    await later();
    await fetch(`${server.baseUrl}/models?output_modalities=audio`, { headers: key }).then((r) => r.arrayBuffer());
    await later();
    await speech('pcm', { 'X-Mock-Scenario': 'provider-overloaded', 'X-Mock-Session': 'checkout-flow' });
    await later();
    await fetch(`${server.baseUrl}/generation?id=gen-missing`, { headers: key }).then((r) => r.arrayBuffer());
    await later();
    await speech('pcm', {}, 'Welcome back! You have three new messages.');
    const speechSeq = lastSeq();
    const shots: string[] = [];
    for (const [name, width, height] of [
      ['wide', 1280, 800],
      ['hd', 1920, 1080],
      ['narrow', 390, 844],
    ] as const) {
      for (const dark of [false, true]) {
        const { page, problems } = await dashboard({ width, height, dark });
        await row(page, speechSeq).waitFor();
        // A scenario picked (not the default), so the panel shows its description, file and rules (on a phone the
        // panels start folded).
        await expect.poll(() => page.locator('#scenario-select option:checked').textContent()).toBe('none (default)');
        if (name !== 'narrow') {
          await page.selectOption('#scenario-select', 'rate-limited');
          await page.locator('.scenario-detail .rules').waitFor();
        }
        const file = (suffix: string) => join(dir, `${name}-${dark ? 'dark' : 'light'}${suffix}.png`);
        await page.screenshot({ path: file('') });
        await row(page, speechSeq).click();
        await page.locator('.player audio').waitFor();
        await page.waitForTimeout(200);
        await page.screenshot({ path: file('-detail') });
        shots.push(file(''), file('-detail'));
        expect(problems.take()).toEqual([]);
      }
    }
    console.log(`dashboard screenshots:\n${shots.join('\n')}`);
  }, TIMEOUT);
});

