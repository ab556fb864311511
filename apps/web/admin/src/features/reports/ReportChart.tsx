import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'react';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

export interface ChartSeries {
  label: string;
  values: number[];
}

const COLOURS = ['#2563eb', '#16a34a', '#dc2626', '#d97706', '#7c3aed', '#0891b2'];

/** A bar chart of a report's main figures per period (Chart.js, loaded only with the reports screen). */
export default function ReportChart({ labels, series, title }: { labels: string[]; series: ChartSeries[]; title: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return undefined;
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: { labels, datasets: series.map((s, i) => ({ label: s.label, data: s.values, backgroundColor: COLOURS[i % COLOURS.length] })) },
      options: { responsive: true, maintainAspectRatio: false, animation: false, plugins: { legend: { position: 'bottom' } } },
    });
    return () => chart.destroy();
  }, [labels, series]);
  return (
    <div className="report-chart" style={{ position: 'relative', height: 280 }}>
      <canvas ref={canvas} role="img" aria-label={title} />
    </div>
  );
}
