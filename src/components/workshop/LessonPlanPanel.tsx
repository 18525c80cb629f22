import { LESSON_PLAN } from '../../core/workshop/lessonPlan';

/**
 * The hour's lesson, step by step, each step that starts from a link carrying it: opening one applies its
 * settings over this browser's (and loads the sample when it says so), as the instructor's link does.
 */
export function LessonPlanPanel() {
  return (
    <section className="panel" aria-labelledby="lesson-plan-title" data-testid="lesson-plan">
      <h2 id="lesson-plan-title">The lesson, step by step</h2>
      <p className="hint">
        About an hour. Each link puts this laptop in the step’s state; share the same links with the room. The
        full plan, with what to say at each step, is docs/workshop.md.
      </p>
      <ol className="lesson-steps">
        {LESSON_PLAN.map((step) => (
          <li key={step.title}>
            <strong>{step.query ? <a href={step.query}>{step.title}</a> : step.title}</strong>{' '}
            <span className="muted">({step.minutes} min)</span>
            <br />
            <small>{step.what}</small>
          </li>
        ))}
      </ol>
    </section>
  );
}
