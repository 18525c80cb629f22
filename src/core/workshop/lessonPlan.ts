/**
 * The hour's lesson of docs/workshop.md inside the lab: each step with its time, what to do and the link
 * that puts every laptop in the same state (a link's settings apply when the page opens with it).
 */
export interface LessonStep {
  title: string;
  minutes: number;
  /** The link's query, or null for a step that continues from the one before. */ query: string | null;
  what: string;
}

export const LESSON_PLAN: readonly LessonStep[] = [
  {
    title: 'Everyone on the same footing',
    minutes: 5,
    query:
      '?sample=1&model=mobilenetv2&weights=nsfwjs&size=64x64&batch=8&epochs=5+1&lr=0.001,0.0001&train=last:20&aug=off&tech=outside,cache',
    what: 'The workshop preset. Train once and point at the memory timeline: flat while frozen, a jump at the fine-tune phase. Ask why.',
  },
  {
    title: 'Predict, then run',
    minutes: 15,
    query: '?sample=1&model=tiny&size=32x32&batch=16&epochs=1+1&train=all&card=40MB&mode=predict',
    what: 'The planner’s numbers stay hidden until you commit a guess. Train: the frozen phase fits, fine-tuning runs out at a named layer on every laptop.',
  },
  {
    title: 'One change at a time',
    minutes: 15,
    query: null,
    what: 'From that link, change one thing (batch, size or the trainable set) and train again; the run history says what changed from the run before.',
  },
  {
    title: 'The fixes',
    minutes: 10,
    query: null,
    what: 'After the OOM, each table applies a different fix from the OOM panel and reads its claim beside the measured peak.',
  },
  {
    title: 'The race',
    minutes: 10,
    query: '?sample=1&model=tiny&size=32x32&epochs=0+1&train=all&card=40MB&view=sweep',
    what: 'Who finds the largest batch that fits first, by hand or with Find largest batch?',
  },
  {
    title: 'The seed case',
    minutes: 5,
    query: '?model=v2-l&weights=random&size=300x500&batch=28&train=all&card=16GB&view=planner',
    what: 'The planner’s verdict predicts the seed’s failure without running it and names where it crosses the card.',
  },
  {
    title: 'The remedies as experiments',
    minutes: 10,
    query: '?sample=1&model=tiny&weights=random&size=32x32&batch=16&epochs=1+1&train=all&view=experiments',
    what: 'Give each table a card: each runs its before and after and reads the measured peaks beside the planner’s.',
  },
  {
    title: 'The class table',
    minutes: 5,
    query: '?view=class-results',
    what: 'Everyone exports their results; the instructor drops all the files on the class table, with no server.',
  },
];
