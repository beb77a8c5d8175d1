/** features/forms: the list of a season's forms and the form itself (answers, score, photos, save). */
export { FormScreen } from './form-screen';
export { FormsScreen, formListItems } from './forms-screen';
export { useFormView } from './use-form-view';
export { newFormEdit } from './new-form-edit';
