from __future__ import annotations

from django.urls import path

from moderation import views

app_name = "moderation"

urlpatterns = [
    path("notifications/", views.notification_list, name="notifications"),
    path("report/<name:username>/", views.report_new, name="report"),
    path("account-closed/", views.banned, name="banned"),
    path("choose-username/", views.rename, name="rename"),
]
