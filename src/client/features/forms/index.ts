/** features/forms: the list of a season's forms and the form itself (answers, score, photos, save). */
export { FormScreen, type ReviewContext, type ReviewSlots } from './form-screen';
export { FormsScreen, type FormListItem } from './forms-screen';
export { useStoredForm } from './use-stored-form';
export { newFormEdit } from './new-form-edit';
