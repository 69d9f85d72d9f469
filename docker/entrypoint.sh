#!/bin/sh
# web: migrate, then gunicorn; worker: a Celery worker; beat: Celery beat; anything else runs as given.
set -eu
case "${1:-web}" in
  web)
    python manage.py migrate --noinput
    # players' kept results (league.standings.summaries): written for the tournaments missing them,
    # as after the upgrade that brings them; each other tournament costs one stamp read
    python manage.py rebuild_statistics --stale
    # the ratings (league.rating): written from the first tournament they have not read, as after
    # the upgrade that brings them; each other tournament costs a few milliseconds
    python manage.py rebuild_ratings --stale
    exec gunicorn league.wsgi:application --bind "0.0.0.0:${PORT:-8000}" \
      --workers "${GUNICORN_WORKERS:-3}" --timeout 60 --access-logfile -
    ;;
  worker)
    # threads, not prefork: a print job lays out its PDF pages in processes of its own,
    # which the daemonic children of a prefork pool may not start
    exec celery -A league.celery worker --loglevel INFO --pool threads --concurrency "${CELERY_CONCURRENCY:-4}"
    ;;
  beat)
    # the periodic tasks of settings.CELERY_BEAT_SCHEDULE (sign-ups' contacts erased after the
    # retention period, docs/privacy.md); its schedule file lives in the media volume
    exec celery -A league.celery beat --loglevel INFO --schedule /data/celerybeat-schedule
    ;;
  *)
    exec "$@"
    ;;
esac
