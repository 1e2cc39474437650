export { DEFAULT_PROFILE, ProfileService } from './profile-service.ts';
