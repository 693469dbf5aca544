// The default theme, with the few style changes axe-core asks for (see style.css).
import DefaultTheme from 'vitepress/theme';
import './style.css';

export default DefaultTheme;
