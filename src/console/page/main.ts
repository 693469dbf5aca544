// The approvals console's page script (placeholder until the page lands).
document.documentElement.dataset.console = 'loading';
