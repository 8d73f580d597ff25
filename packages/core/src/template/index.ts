export {
  assertValidTemplate,
  DIR_ENV,
  type Placeholder,
  PROMPT_ENV,
  PROMPT_FILE_ENV,
  renderTemplate,
  TemplateError,
  templateUses,
} from './render-template.js';
