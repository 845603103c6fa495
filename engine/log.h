// log.h -- messages to stderr: warnings and errors name the file and offset themselves
#ifndef LOG_H
#define LOG_H

void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
// 0: errors only, 1: + warnings (default), 2: + info
void log_set_level(int level);
// on: this thread's warnings and info are not shown (its errors are); returns the setting it had
int log_mute_thread(int on);

#endif
