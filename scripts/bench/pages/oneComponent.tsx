/**
 * The floor for first contentful paint (budget 2): a production React page that renders one
 * component and nothing else. scripts/bench/firstPaint.ts bundles it at bench time.
 */
import { createRoot } from 'react-dom/client';

function Title() {
  return <h1>Taleweaver</h1>;
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(<Title />);
