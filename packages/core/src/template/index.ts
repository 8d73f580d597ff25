export {
  assertValidTemplate,
  DIR_ENV,
  type Placeholder,
  PROMPT_ENV,
  PROMPT_FILE_ENV,
  renderCheckCommand,
  renderTemplate,
  TemplateError,
  templateUses,
  VERIFY_DIR_ENV,
} from './render-template.js';
