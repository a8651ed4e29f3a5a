import { createRoot } from 'react-dom/client';
import { FlowRouter } from './runtime/FlowRouter';
import { flowsOfSession, modelsOf, readPageFlows } from './runtime/flows';
import { readClientSettings } from './runtime/settings';
import { screenRegistry } from './screens/registry';
import './styles/app.css';
import './styles/form-widgets.css';
import './styles/application-steps.css';

const settings = readClientSettings();
const root = document.getElementById('root');
if (root) {
  root.style.setProperty('--brand', settings.bank.themeColor);
  // An applicant inside an application keeps the flow version they started on (ADR 0031).
  void flowsOfSession(readPageFlows()).then((flows) =>
    createRoot(root).render(<FlowRouter settings={settings} models={modelsOf(flows)} screens={screenRegistry} />),
  );
}
