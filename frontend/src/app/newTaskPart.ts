// The new task's view and the first-run onboarding it shows: one chunk, loaded when a new task
// is drawn (or ahead of that, once the first screen is painted).
export { NewTaskView } from '../features/sessions/NewTaskView';
export { default as Onboarding } from '../features/onboarding/Onboarding';
