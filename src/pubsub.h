/* pubsub.h — publish/subscribe (Redis's pubsub.c). Work in progress. */
#pragma once
