/**
 * The `picture` entry: index.html runs it on its own, right after the root element and before the
 * app's scripts (home-picture.ts says what it paints and when).
 */
import { safeLocalStorage } from '../../lib/local-storage';
import { paintHomePicture } from './home-picture';

paintHomePicture(document, safeLocalStorage());
