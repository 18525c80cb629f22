import { CopyLink } from './CopyLink';
import { LinkNotice } from './LinkNotice';
import { ModeSwitch } from './ModeSwitch';
import './workshop.css';

/** The workshop's controls under the header: the mode, "Copy link", and what an opening link did. */
export function WorkshopBar() {
  return (
    <section className="workshop-bar" aria-label="Workshop" data-testid="workshop-bar">
      <ModeSwitch />
      <CopyLink />
      <LinkNotice />
    </section>
  );
}
