from __future__ import annotations

from django.urls import path

from learn import views

app_name = "learn"

urlpatterns = [
    path("learn/", views.index, name="index"),
    path("learn/<int:number>/", views.step, name="step"),
    path("learn/done/", views.finish, name="finish"),
]
