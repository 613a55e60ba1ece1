import type { ComponentChildren } from 'preact';

/** A titled section of the detail panel. */
export function Section({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section class="detail-section">
      <h3>{title}</h3>
      {children}
    </section>
  );
}
