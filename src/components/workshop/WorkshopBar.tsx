import { CopyLink } from './CopyLink';
import { ModeSwitch } from './ModeSwitch';
import './workshop.css';

/** The workshop's controls, beside the views' tabs on every view: the mode and "Copy link". */
export function WorkshopBar() {
  return (
    <section className="workshop-bar" aria-label="Workshop" data-testid="workshop-bar">
      <ModeSwitch />
      <CopyLink />
    </section>
  );
}
